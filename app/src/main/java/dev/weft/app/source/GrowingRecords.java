package dev.weft.app.source;

import dev.weft.log.LogRecord;

import java.util.Arrays;

/**
 * The records of a recording that is still being written, kept in memory in fixed-size chunks: one thread appends,
 * and a {@link View} taken at some size reads the records below it from any thread while appends go on. Chunks never
 * move once filled, and a view holds the chunk table as it was when taken, so nothing it reads is ever rewritten.
 */
final class GrowingRecords {

    private static final int CHUNK_BITS = 12;
    private static final int CHUNK = 1 << CHUNK_BITS;

    private volatile LogRecord[][] chunks = new LogRecord[16][];
    private volatile int size;

    /** Appends the next record (the one appending thread only). */
    void add(LogRecord r) {
        int n = size;
        int c = n >>> CHUNK_BITS;
        LogRecord[][] table = chunks;
        if (c == table.length) {
            table = Arrays.copyOf(table, table.length * 2);
        }
        if (table[c] == null) {
            table[c] = new LogRecord[CHUNK];
        }
        table[c][n & (CHUNK - 1)] = r;
        chunks = table;
        size = n + 1;   // volatile write after the record: a reader that sees the size sees the record
    }

    int size() {
        return size;
    }

    /** The first {@link #size()} records as they are now, readable from any thread. */
    View view() {
        int n = size;   // volatile read first: every record below n and its chunk table are visible
        return new View(chunks, n);
    }

    /** An unchanging prefix of the records. */
    record View(LogRecord[][] chunks, int size) {
        LogRecord get(long op) {
            if (op < 0 || op >= size) {
                throw new IndexOutOfBoundsException("op " + op + " not in 0.." + (size - 1));
            }
            return chunks[(int) (op >>> CHUNK_BITS)][(int) (op & (CHUNK - 1))];
        }
    }
}
