package dev.weft.log;

import java.util.Objects;

/**
 * One event of a weft-log record ({@code "e"} member), as specified in weft-log-v2.md §5.
 * All u64 fields are held in {@code long} and must be treated as unsigned.
 * Payloads are kept as the hex string of the log, verbatim (case preserved).
 *
 * <p>The records here and in {@link SendOutcome}/{@link RecvOutcome} and {@link VAddr} write out {@code equals} and
 * {@code hashCode} (the component-wise meaning a record's generated ones have): replay compares every replayed event
 * with the recorded one, and the generated methods are bootstrapped at run time through invokedynamic, building
 * some 80 hidden classes on the first comparisons that no class-data-sharing archive can keep, a measurable part of
 * a short {@code weft replay}. {@code RecordEqualityTest} checks each one against its components by reflection.
 */
public sealed interface Event {

    /** The tag value written as member {@code k}. */
    String kind();

    /** The connection this event belongs to, or -1 (as "none") for violation and end. */
    default long connOrNone() {
        return this instanceof OnConnection c ? c.conn() : -1;
    }

    /** The events that belong to a connection (all but violation and end); each record's {@code conn} is it. */
    interface OnConnection {
        long conn();
    }

    /**
     * Whether this event is a broker operation (connect … disconnect): what the core applies, invariants see and
     * per-connection views show. Violation and end records are annotations about the run, not operations; every
     * place that must skip them asks here (the one home of that rule).
     */
    default boolean isBrokerOperation() {
        // Not derived from connOrNone(): a conn is a u64 and may look negative in a long.
        return !(this instanceof Violation || this instanceof End);
    }

    // The records with at most one component have trivial members, written one to a line.

    record Connect(long conn) implements Event, OnConnection {
        public String kind() { return "connect"; }
        @Override public boolean equals(Object other) { return other instanceof Connect o && conn == o.conn; }
        @Override public int hashCode() { return Long.hashCode(conn); }
    }

    /** A connection announcing which node it is; node is a u32. */
    record Hello(long conn, long node) implements Event, OnConnection {
        public String kind() { return "hello"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Hello o && conn == o.conn && node == o.node;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(node));
        }
    }

    record Bind(long conn, VAddr addr) implements Event, OnConnection {
        public String kind() { return "bind"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Bind o && conn == o.conn && Objects.equals(addr, o.addr);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Objects.hashCode(addr));
        }
    }

    record Send(long conn, VAddr src, VAddr dst, long chanSeq, long sendVt, String payload, SendOutcome outcome)
            implements Event, OnConnection {
        public String kind() { return "send"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Send o && conn == o.conn && chanSeq == o.chanSeq && sendVt == o.sendVt
                    && Objects.equals(src, o.src) && Objects.equals(dst, o.dst)
                    && Objects.equals(payload, o.payload) && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Objects.hashCode(src), Objects.hashCode(dst),
                    Long.hashCode(chanSeq), Long.hashCode(sendVt), Objects.hashCode(payload), Objects.hashCode(outcome));
        }
    }

    record Recv(long conn, boolean blocking, RecvOutcome outcome) implements Event, OnConnection {
        public String kind() { return "recv"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Recv o && conn == o.conn && blocking == o.blocking
                    && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Boolean.hashCode(blocking), Objects.hashCode(outcome));
        }
    }

    record Disconnect(long conn) implements Event, OnConnection {
        public String kind() { return "disconnect"; }
        @Override public boolean equals(Object other) { return other instanceof Disconnect o && conn == o.conn; }
        @Override public int hashCode() { return Long.hashCode(conn); }
    }

    record Violation(String invariant, String message) implements Event {
        public String kind() { return "violation"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Violation o && Objects.equals(invariant, o.invariant)
                    && Objects.equals(message, o.message);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Objects.hashCode(invariant), Objects.hashCode(message));
        }
    }

    /** events = records in the log including this one; sent/dropped = send records before it. */
    record End(long events, long sent, long dropped) implements Event {
        public String kind() { return "end"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof End o && events == o.events && sent == o.sent && dropped == o.dropped;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(events), Long.hashCode(sent), Long.hashCode(dropped));
        }
    }
}
