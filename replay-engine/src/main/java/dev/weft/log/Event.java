package dev.weft.log;

/**
 * One event of a weft-log record ({@code "e"} member), as specified in weft-log-v2.md §5.
 * All u64 fields are held in {@code long} and must be treated as unsigned.
 * Payloads are kept as the hex string of the log, verbatim (case preserved).
 */
public sealed interface Event {

    /** The tag value written as member {@code k}. */
    String kind();

    /** The connection this event belongs to, or -1 (as "none") for violation and end. */
    default long connOrNone() {
        return -1;
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

    record Connect(long conn) implements Event {
        public String kind() { return "connect"; }
        public long connOrNone() { return conn; }
    }

    /** A connection announcing which node it is; node is a u32. */
    record Hello(long conn, long node) implements Event {
        public String kind() { return "hello"; }
        public long connOrNone() { return conn; }
    }

    record Bind(long conn, VAddr addr) implements Event {
        public String kind() { return "bind"; }
        public long connOrNone() { return conn; }
    }

    record Send(long conn, VAddr src, VAddr dst, long chanSeq, long sendVt, String payload, SendOutcome outcome)
            implements Event {
        public String kind() { return "send"; }
        public long connOrNone() { return conn; }
    }

    record Recv(long conn, boolean blocking, RecvOutcome outcome) implements Event {
        public String kind() { return "recv"; }
        public long connOrNone() { return conn; }
    }

    record Disconnect(long conn) implements Event {
        public String kind() { return "disconnect"; }
        public long connOrNone() { return conn; }
    }

    record Violation(String invariant, String message) implements Event {
        public String kind() { return "violation"; }
    }

    /** events = records in the log including this one; sent/dropped = send records before it. */
    record End(long events, long sent, long dropped) implements Event {
        public String kind() { return "end"; }
    }
}
