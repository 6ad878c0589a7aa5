package dev.weft.log;

import java.util.Objects;

/** What a recv returned (weft-log-v2.md §5, tag member {@code kind}). Written-out equals/hashCode: see {@link Event}. */
public sealed interface RecvOutcome {

    String kind();

    RecvOutcome EMPTY = new Empty();

    // As in Event: the records without components have trivial members, written one to a line.

    record Empty() implements RecvOutcome {
        public String kind() { return "empty"; }
        @Override public boolean equals(Object other) { return other instanceof Empty; }
        @Override public int hashCode() { return 0; }
    }

    /** payload is a hex string; the core always produces lowercase, a log may hold either case. */
    record Delivered(VAddr src, VAddr dst, long delivNs, long tie, String payload) implements RecvOutcome {
        public String kind() { return "delivered"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Delivered o && delivNs == o.delivNs && tie == o.tie
                    && Objects.equals(src, o.src) && Objects.equals(dst, o.dst) && Objects.equals(payload, o.payload);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Objects.hashCode(src), Objects.hashCode(dst), Long.hashCode(delivNs),
                    Long.hashCode(tie), Objects.hashCode(payload));
        }
    }
}
