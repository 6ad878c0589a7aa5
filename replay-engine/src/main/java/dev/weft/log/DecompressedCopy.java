package dev.weft.log;

/**
 * Receives a gzip log's decompressed bytes, all of them and in order, as the reader inflates them: the index keeps
 * them as a plain file for random access, at the cost of one copy instead of re-serialising every record. Called on
 * the reader's inflating thread; an implementation must not throw (keep a write failure and report it later).
 */
public interface DecompressedCopy {

    void write(byte[] bytes, int off, int len);
}
