package dev.weft.log;

/** What a recv returned (weft-log-v2.md §5, tag member {@code kind}). */
public sealed interface RecvOutcome {

    String kind();

    RecvOutcome EMPTY = new Empty();

    record Empty() implements RecvOutcome {
        public String kind() { return "empty"; }
    }

    /** payload is a hex string; the core always produces lowercase, a log may hold either case. */
    record Delivered(VAddr src, VAddr dst, long delivNs, long tie, String payload) implements RecvOutcome {
        public String kind() { return "delivered"; }
    }
}
