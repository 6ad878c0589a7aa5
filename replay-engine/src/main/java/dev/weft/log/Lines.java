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
     * Length of the canonical prefix (up to {@code ,"chain"}) that {@link #specChain()} was computed over,
     * or -1 when no hash was computed ahead for this line.
     */
    default int specPrefixLen() {
        return -1;
    }

    /** FNV chain after the current line, valid only if specPrefixLen() matched and all before did. */
    default long specChain() {
        return 0;
    }

    /** Stream digest after the current line, under the same condition. */
    default long specDigest() {
        return 0;
    }

    /** The reader will not use hashes computed ahead any more (one did not match). */
    default void stopSpeculating() {
    }
}
