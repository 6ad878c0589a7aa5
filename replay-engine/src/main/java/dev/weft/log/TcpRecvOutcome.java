package dev.weft.log;

import java.util.Objects;

/** What a TCP read returned (member {@code kind}). Written-out equals/hashCode: see {@link Event}. */
public sealed interface TcpRecvOutcome {

    String kind();

    TcpRecvOutcome EOF = new Eof();
    TcpRecvOutcome RESET = new Reset();
    TcpRecvOutcome EMPTY = new Empty();

    /**
     * Bytes at stream offset {@code offset} of the direction read; delivNs is the delivery time of the last segment
     * they come from (the instant the read could first return exactly these bytes); payload lowercase hex.
     */
    record Data(long offset, long delivNs, String payload) implements TcpRecvOutcome {
        public String kind() { return "data"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Data o && offset == o.offset && delivNs == o.delivNs
                    && Objects.equals(payload, o.payload);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(offset), Long.hashCode(delivNs), Objects.hashCode(payload));
        }
    }

    /** Every byte read and the peer's FIN arrived (or this end shut down reading). */
    record Eof() implements TcpRecvOutcome {
        public String kind() { return "eof"; }
        @Override public boolean equals(Object other) { return other instanceof Eof; }
        @Override public int hashCode() { return 0; }
    }

    record Reset() implements TcpRecvOutcome {
        public String kind() { return "reset"; }
        @Override public boolean equals(Object other) { return other instanceof Reset; }
        @Override public int hashCode() { return 0; }
    }

    /** Nothing to return yet (a non-blocking read, or the horizon is before the next delivery). */
    record Empty() implements TcpRecvOutcome {
        public String kind() { return "empty"; }
        @Override public boolean equals(Object other) { return other instanceof Empty; }
        @Override public int hashCode() { return 0; }
    }
}
