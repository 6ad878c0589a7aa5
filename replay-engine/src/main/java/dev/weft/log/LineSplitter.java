package dev.weft.log;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines as the reference does (§1): at '\n', one '\r' before it removed, a final
 * line without terminator still a line. One read buffer, reused; grown only for a line longer than it, and
 * never past the maximum line length ({@link LineLimit}), so no input can exhaust memory.
 *
 * <p>A record line (any line after the header) longer than the buffer has its runs of white space outside
 * strings folded to one space as it is read: JSON means the same thing with one space as with a billion, so
 * a valid log padded with huge white space still reads (and hashes: chain and digest are over the canonical
 * form) exactly as the reference reads it, in bounded memory. The header is never folded: its chain value is
 * over its raw bytes.
 */
final class LineSplitter implements Lines {

    private static final int BUFFER_SIZE = 1 << 20;
    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    private final InputStream in;
    private byte[] buf;
    private int pos;
    private int limit;
    /** Stream offset of buf[0]. */
    private long bufBase;
    private boolean eof;

    private int lineOff;
    private int lineLen;
    private long lineStreamOffset;

    private final int maxLineBytes;
    /** Physical number of the line being read (1 = the header). */
    private long lineNo = 1;
    /** White-space folding of the pending line: buf[0, folded) is folded, with the JSON state there. */
    private int folded;
    private boolean inString;
    private boolean escaped;
    private boolean afterSpace;
    /** Bytes of the pending line removed by folding: later stream offsets are this much further on. */
    private long foldedAway;

    /** {@code prefix[0, n)} are bytes already taken from {@code in} (the magic-byte probe). */
    LineSplitter(InputStream in, byte[] prefix, int n) {
        this(in, prefix, n, LineLimit.maxLineBytes());
    }

    LineSplitter(InputStream in, byte[] prefix, int n, int maxLineBytes) {
        this(in, prefix, n, maxLineBytes, 1);
    }

    /** Starts at physical line {@code firstLineNo}: above 1 the first line is a record line (folded when long). */
    LineSplitter(InputStream in, byte[] prefix, int n, int maxLineBytes, long firstLineNo) {
        this.in = in;
        this.lineNo = firstLineNo;
        this.maxLineBytes = maxLineBytes;
        // A buffer no larger than the limit allows (plus one byte for the terminator) makes the check exact.
        buf = new byte[(int) Math.max(n, Math.min(BUFFER_SIZE, maxLineBytes + 1L))];
        System.arraycopy(prefix, 0, buf, 0, n);
        limit = n;
    }

    @Override
    public boolean next() throws WeftLogException {
        int scan = pos;
        for (;;) {
            int nl = indexOfNewline(buf, scan, limit);
            if (nl >= 0) {
                int e = nl > pos && buf[nl - 1] == '\r' ? nl - 1 : nl;
                lineOff = pos;
                lineLen = e - pos;
                lineStreamOffset = bufBase + pos;
                pos = nl + 1;
                return lineTaken();
            }
            if (eof) {
                if (pos < limit) {
                    lineOff = pos;
                    lineLen = limit - pos;
                    lineStreamOffset = bufBase + pos;
                    pos = limit;
                    return lineTaken();
                }
                return false;
            }
            scan = fill();
        }
    }

    private boolean lineTaken() throws WeftLogException {
        if (lineLen > maxLineBytes) {
            throw LineLimit.exceeded(lineNo, maxLineBytes);
        }
        lineNo++;
        bufBase += foldedAway;
        foldedAway = 0;
        folded = 0;
        inString = false;
        escaped = false;
        afterSpace = false;
        return true;
    }

    @Override
    public byte[] buf() {
        return buf;
    }

    @Override
    public int off() {
        return lineOff;
    }

    @Override
    public int len() {
        return lineLen;
    }

    @Override
    public long streamOffset() {
        return lineStreamOffset;
    }

    /** First '\n' in b[from, to), or -1; scans 8 bytes per step (SWAR zero-byte test on b XOR '\n'). */
    private static int indexOfNewline(byte[] b, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) LONG_LE.get(b, i) ^ NEWLINES;
            long found = (x - ONES) & ~x & HIGHS;
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * Moves the unread tail (the pending line) to the front, makes room (folding white space, then growing up
     * to the line limit) and reads more; returns where the bytes not yet searched for a newline start.
     */
    private int fill() throws WeftLogException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            bufBase += pos;
            limit -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            if (lineNo > 1) {
                foldWhiteSpace();
            }
            if (limit > buf.length / 2) {
                if (limit > maxLineBytes) {
                    throw LineLimit.exceeded(lineNo, maxLineBytes);
                }
                buf = Arrays.copyOf(buf, (int) Math.min(buf.length * 2L, maxLineBytes + 1L));
            }
        }
        int unsearched = limit;
        try {
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                limit += n;
            }
        } catch (IOException e) {
            // A decoding error (a corrupt gzip member) surfaces here: name the line it cut into.
            throw WeftLogException.io(RecordStream.describe(e) + " (reading line " + lineNo + ")", lineNo, e);
        }
        return unsearched;
    }

    /**
     * Folds each run of white space outside strings in the pending line buf[0, limit) to one space, carrying
     * the JSON string state from the previous call so each byte is looked at once. Token boundaries stay (a
     * run becomes one space, never nothing), so the line parses exactly as before; only the columns in an
     * error message can move. The bytes removed are counted so the offsets of later lines stay true.
     */
    private void foldWhiteSpace() {
        int w = folded;
        for (int r = folded; r < limit; r++) {
            byte c = buf[r];
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == ' ' || c == '\t' || c == '\r') {
                if (afterSpace) {
                    continue;
                }
                afterSpace = true;
                buf[w++] = ' ';
                continue;
            } else if (c == '"') {
                inString = true;
            }
            afterSpace = false;
            buf[w++] = c;
        }
        foldedAway += limit - w;
        limit = w;
        folded = w;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
