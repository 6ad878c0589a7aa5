package dev.weft.log;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Splits lines on a separate thread and, on that thread, folds the integrity chain and stream digest
 * ahead of the parser, assuming every record line is written canonically (as writers do): then canon is
 * the line up to its trailing {@code ,"chain":"<16>"}} plus '}'. The parser confirms the assumption line by
 * line (its canonical prefix must end exactly there); at the first line where it does not, the reader
 * stops using these values and hashes by itself from its last confirmed chain. Results are therefore the
 * same as without this class; FNV-1a (strictly serial) just runs beside the parser instead of after it.
 */
final class HashAheadLines implements Lines {

    private static final int BLOCK_BYTES = 1 << 20;
    private static final int BLOCK_LINES = 8192;
    private static final int BLOCKS = 3;
    /** {@code ,"chain":"} + 16 hex + {@code "}}: the tail of a canonical record line. */
    private static final int CHAIN_TAIL = 28;
    private static final byte[] CHAIN_MEMBER = ",\"chain\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSING_BRACE = {'}'};

    /** Consecutive lines copied out of the splitter, with what was computed ahead for each. */
    private static final class Block extends HandOff {
        byte[] data = new byte[BLOCK_BYTES];
        final int[] starts = new int[BLOCK_LINES];
        final int[] lens = new int[BLOCK_LINES];
        final long[] offsets = new long[BLOCK_LINES];
        final int[] spec = new int[BLOCK_LINES];
        final long[] chains = new long[BLOCK_LINES];
        final long[] digests = new long[BLOCK_LINES];
        int count;
        int used;

        void reset() {
            count = 0;
            used = 0;
            last = false;
            error = null;
        }
    }

    private final LineSplitter source;
    private final BlockingQueue<Block> filled = new ArrayBlockingQueue<>(BLOCKS + 1);
    private final BlockingQueue<Block> free = new ArrayBlockingQueue<>(BLOCKS + 1);
    private final Thread thread;
    private volatile boolean closed;
    private volatile boolean speculationWanted = true;

    private Block current;
    private int index;

    HashAheadLines(LineSplitter source) {
        this.source = source;
        for (int i = 0; i < BLOCKS; i++) {
            free.add(new Block());
        }
        thread = HelperThreads.startDaemon(this::produce, "weft-log-hasher");
    }

    // ---------------------------------------------------------------- producer thread

    private void produce() {
        long[] hashes = {0, Fnv1a.OFFSET_BASIS};
        boolean header = true;
        boolean speculating = true;
        boolean pending = false; // the splitter's current line did not fit the last block
        try {
            while (!closed) {
                Block b = free.take();
                b.reset();
                for (;;) {
                    if (!pending) {
                        try {
                            if (!source.next()) {
                                b.last = true;
                                break;
                            }
                        } catch (WeftLogException e) {
                            b.failWith(e);
                            break;
                        } catch (RuntimeException e) {
                            b.failWith(WeftLogException.io("read failed: " + e, 0, e));
                            break;
                        }
                    }
                    int len = source.len();
                    if (b.count == BLOCK_LINES || (b.used + len > b.data.length && b.count > 0)) {
                        pending = true;
                        break;
                    }
                    pending = false;
                    if (len > b.data.length) {
                        b.data = Arrays.copyOf(b.data, len);
                    }
                    int i = b.count++;
                    System.arraycopy(source.buf(), source.off(), b.data, b.used, len);
                    b.starts[i] = b.used;
                    b.lens[i] = len;
                    b.offsets[i] = source.streamOffset();
                    b.spec[i] = -1;
                    if (header) {
                        header = false;
                        hashes[0] = Fnv1a.update(Fnv1a.OFFSET_BASIS, b.data, b.used, len);
                    } else if (len > 0 && speculating) {
                        if (speculationWanted && looksCanonical(b.data, b.used, len)) {
                            int prefix = len - CHAIN_TAIL;
                            Fnv1a.update2(hashes, b.data, b.used, prefix);
                            Fnv1a.update2(hashes, CLOSING_BRACE, 0, 1);
                            b.spec[i] = prefix;
                            b.chains[i] = hashes[0];
                            b.digests[i] = hashes[1];
                        } else {
                            speculating = false; // without the parser we cannot know canon any more
                        }
                    }
                    b.used += len;
                }
                filled.put(b);
                if (b.last) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            // closed
        }
    }

    /** The line ends like a canonical record: {@code ,"chain":"} + 16 bytes + {@code "}}. */
    private static boolean looksCanonical(byte[] d, int off, int len) {
        if (len <= CHAIN_TAIL || d[off + len - 1] != '}' || d[off + len - 2] != '"') {
            return false;
        }
        int at = off + len - CHAIN_TAIL;
        for (int i = 0; i < CHAIN_MEMBER.length; i++) {
            if (d[at + i] != CHAIN_MEMBER[i]) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- consumer side

    @Override
    public boolean next() throws WeftLogException {
        for (;;) {
            if (current != null && index + 1 < current.count) {
                index++;
                return true;
            }
            if (current != null) {
                if (current.last) {
                    if (current.error != null) {
                        throw current.error;
                    }
                    return false;
                }
                free.add(current);
            }
            current = HelperThreads.take(filled);
            index = -1;
        }
    }

    @Override
    public byte[] buf() {
        return current.data;
    }

    @Override
    public int off() {
        return current.starts[index];
    }

    @Override
    public int len() {
        return current.lens[index];
    }

    @Override
    public long streamOffset() {
        return current.offsets[index];
    }

    @Override
    public boolean hashedAhead(int prefixLen, long[] hashes) {
        int spec = current.spec[index]; // -1: not hashed ahead
        if (spec < 0 || spec != prefixLen) {
            return false;
        }
        hashes[0] = current.chains[index];
        hashes[1] = current.digests[index];
        return true;
    }

    @Override
    public void stopSpeculating() {
        speculationWanted = false;
    }

    @Override
    public void close() throws IOException {
        closed = true;
        HelperThreads.stopAndJoin(thread, filled);
        source.close();
    }
}
