package dev.weft.log;

/**
 * How a TCP connect ended (docs/weft-log-format.md "TCP streams", member {@code kind}); {@code pending} only in a
 * non-blocking {@code tcp_connect}. Written-out equals/hashCode: see {@link Event}.
 */
public sealed interface TcpConnectOutcome {

    String kind();

    TcpConnectOutcome PENDING = new Pending();

    /** The connector sees the stream established at estNs (the SYN-ACK's arrival). */
    record Established(long estNs) implements TcpConnectOutcome {
        public String kind() { return "established"; }
        @Override public boolean equals(Object other) { return other instanceof Established o && estNs == o.estNs; }
        @Override public int hashCode() { return Long.hashCode(estNs); }
    }

    /** Nothing listened at the destination: ECONNREFUSED at atNs (one flight after the SYN). */
    record Refused(long atNs) implements TcpConnectOutcome {
        public String kind() { return "refused"; }
        @Override public boolean equals(Object other) { return other instanceof Refused o && atNs == o.atNs; }
        @Override public int hashCode() { return Long.hashCode(atNs); }
    }

    /** The SYN was cut by a partition: ETIMEDOUT at atNs (send_vt + the SYN timeout). */
    record TimedOut(long atNs) implements TcpConnectOutcome {
        public String kind() { return "timed_out"; }
        @Override public boolean equals(Object other) { return other instanceof TimedOut o && atNs == o.atNs; }
        @Override public int hashCode() { return Long.hashCode(atNs); }
    }

    record Pending() implements TcpConnectOutcome {
        public String kind() { return "pending"; }
        @Override public boolean equals(Object other) { return other instanceof Pending; }
        @Override public int hashCode() { return 0; }
    }
}
