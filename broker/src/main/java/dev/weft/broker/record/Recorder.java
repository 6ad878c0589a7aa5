package dev.weft.broker.record;

import dev.weft.log.Event;

/**
 * Where the broker's linearized operations go. Called under the broker's ordering lock, one call per operation,
 * in op order. A recorder never throws: a recording that can no longer be written reports that once and then
 * ignores further operations, so the broker keeps serving the nodes.
 */
public interface Recorder extends AutoCloseable {

    /** A broker that records nothing. */
    Recorder NONE = new Recorder() {
        @Override
        public void record(long vt, Event e) {
        }

        @Override
        public void finish(long vt, long sent, long dropped) {
        }

        @Override
        public void close() {
        }
    };

    /** Appends one operation with the core's vt after it. */
    void record(long vt, Event e);

    /** Appends the {@code end} record (clean finish); the recorder accepts nothing after it. */
    void finish(long vt, long sent, long dropped);

    /**
     * Writes out what {@link #record} staged. Called outside the ordering lock by the thread about to send a reply
     * that depends on those records (so a node never sees an effect that is not on its way to the log).
     */
    default void drain() {
    }

    /** True while every operation so far reached the log. */
    default boolean healthy() {
        return true;
    }

    @Override
    void close();
}
