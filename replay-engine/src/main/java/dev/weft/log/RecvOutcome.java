package dev.weft.log;

import java.util.Objects;

/** What a recv returned (weft-log-v2.md §5, tag member {@code kind}). Written-out equals/hashCode: see {@link Event}. */
public sealed interface RecvOutcome {

    String kind();

    RecvOutcome EMPTY = new Empty();

    record Empty() implements RecvOutcome {
        public String kind() { return "empty"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Empty;
        }

        @Override
        public int hashCode() {
            return 0;
        }
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
            int h = Objects.hashCode(src);
            h = 31 * h + Objects.hashCode(dst);
            h = 31 * h + Long.hashCode(delivNs);
            h = 31 * h + Long.hashCode(tie);
            return 31 * h + Objects.hashCode(payload);
        }
    }
}
