package dev.weft.log;

/** What became of a TCP write (member {@code kind}). Written-out equals/hashCode: see {@link Event}. */
public sealed interface TcpSendOutcome {

    String kind();

    TcpSendOutcome STALLED = new Stalled();
    TcpSendOutcome FULL = new Full();
    TcpSendOutcome RESET = new Reset();
    TcpSendOutcome CLOSED = new Closed();

    /** The accepted bytes form one segment delivered at delivNs after retransmits lost copies. */
    record Segment(long delivNs, long retransmits) implements TcpSendOutcome {
        public String kind() { return "segment"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Segment o && delivNs == o.delivNs && retransmits == o.retransmits;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(delivNs), Long.hashCode(retransmits));
        }
    }

    /** Accepted, but a partition cuts the stream: its delivery is decided when the partition heals (docs/tcp.md). */
    record Stalled() implements TcpSendOutcome {
        public String kind() { return "stalled"; }
        @Override public boolean equals(Object other) { return other instanceof Stalled; }
        @Override public int hashCode() { return 0; }
    }

    /** The peer's receive buffer has no room: nothing accepted. */
    record Full() implements TcpSendOutcome {
        public String kind() { return "full"; }
        @Override public boolean equals(Object other) { return other instanceof Full; }
        @Override public int hashCode() { return 0; }
    }

    /** The stream was reset (ECONNRESET / EPIPE). */
    record Reset() implements TcpSendOutcome {
        public String kind() { return "reset"; }
        @Override public boolean equals(Object other) { return other instanceof Reset; }
        @Override public int hashCode() { return 0; }
    }

    /** This end shut down writing, or the stream never connected (EPIPE / ENOTCONN). */
    record Closed() implements TcpSendOutcome {
        public String kind() { return "closed"; }
        @Override public boolean equals(Object other) { return other instanceof Closed; }
        @Override public int hashCode() { return 0; }
    }
}
