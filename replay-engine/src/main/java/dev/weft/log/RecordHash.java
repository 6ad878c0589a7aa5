package dev.weft.log;

/**
 * The hash code of the records that write out equals/hashCode (see {@link Event} for why): the value a record's
 * generated hashCode gives, a 31-fold over the component hashes in declaration order, without its run-time
 * bootstrap.
 */
final class RecordHash {

    private RecordHash() {
    }

    /** {@code componentHashes}: each component's hash ({@code Long.hashCode}, {@code Objects.hashCode}, …), in order. */
    static int of(int... componentHashes) {
        int h = 0;
        for (int c : componentHashes) {
            h = 31 * h + c;
        }
        return h;
    }
}
