package dev.weft.log;

import java.io.Closeable;

/**
 * A cursor over the lines of a log (weft-log-v2.md §1): after {@link #next()} returns true, the current
 * line is {@code buf()[off() .. off()+len())} without its terminator. A source may also offer the chain
 * and digest computed ahead for the line, on the assumption that every record so far was canonical.
 */
interface Lines extends Closeable {

    boolean next() throws WeftLogException;

    byte[] buf();

    int off();

    int len();

    /** Offset of the current line in the (decompressed) stream. */
    long streamOffset();

    /**
     * Whether the chain and stream digest after the current line were computed ahead over a canonical prefix (up to
     * {@code ,"chain"}) of exactly {@code prefixLen} bytes; if so, writes them to {@code hashes[0]} and
     * {@code hashes[1]}. They are right only if every line before was canonical too, which the reader confirms.
     * A source that does not hash ahead answers false.
     */
    default boolean hashedAhead(int prefixLen, long[] hashes) {
        return false;
    }

    /** The reader will not use hashes computed ahead any more (one did not match). */
    default void stopSpeculating() {
    }
}
