package dev.weft.log;

import java.util.Objects;

/** What a TCP accept returned (member {@code kind}). Written-out equals/hashCode: see {@link Event}. */
public sealed interface TcpAcceptOutcome {

    String kind();

    TcpAcceptOutcome EMPTY = new Empty();

    /** Stream sid from src (the connector) to dst (the listener's address), its SYN arrived at synNs. */
    record Accepted(long sid, VAddr src, VAddr dst, long synNs) implements TcpAcceptOutcome {
        public String kind() { return "accepted"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Accepted o && sid == o.sid && synNs == o.synNs && Objects.equals(src, o.src)
                    && Objects.equals(dst, o.dst);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(sid), Objects.hashCode(src), Objects.hashCode(dst), Long.hashCode(synNs));
        }
    }

    record Empty() implements TcpAcceptOutcome {
        public String kind() { return "empty"; }
        @Override public boolean equals(Object other) { return other instanceof Empty; }
        @Override public int hashCode() { return 0; }
    }
}
