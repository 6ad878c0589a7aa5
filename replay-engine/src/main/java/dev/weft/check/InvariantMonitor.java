package dev.weft.check;

import dev.weft.log.Event;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Holds invariants in registration order and offers each event to each of them in that order. */
public final class InvariantMonitor {

    private final List<Invariant> invariants;
    private final List<Violation> violations = new ArrayList<>();

    public InvariantMonitor(List<Invariant> invariants) {
        this.invariants = List.copyOf(invariants);
    }

    public boolean isEmpty() {
        return invariants.isEmpty();
    }

    /** Offers the event to every invariant; returns how many violations it raised (appended to {@link #violations()}). */
    public int offer(long op, long vt, Event event) {
        int raised = 0;
        for (Invariant inv : invariants) {
            String message = inv.offer(op, vt, event);
            if (message != null) {
                violations.add(new Violation(inv.name(), op, vt, message, event));
                raised++;
            }
        }
        return raised;
    }

    public List<Violation> violations() {
        return Collections.unmodifiableList(violations);
    }
}
