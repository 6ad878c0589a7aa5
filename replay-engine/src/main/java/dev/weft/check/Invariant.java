package dev.weft.check;

import dev.weft.log.Event;

/**
 * A streaming monitor over replayed (or executed) events, per invariants-and-checkers.md §1.
 * Instances hold per-run state: create fresh ones for every run.
 */
public interface Invariant {

    /** The fixed name reported in violations, e.g. {@code per-channel-fifo}. */
    String name();

    /**
     * Sees one event; returns the violation message it completes, or null when nothing is violated.
     * Never called with {@code violation} or {@code end} events.
     */
    String offer(long op, long vt, Event event);
}
