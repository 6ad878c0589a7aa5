package dev.weft.log;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines as the reference does (§1): at '\n', one '\r' before it removed, a final
 * line without terminator still a line. One read buffer, reused; grown only for a line longer than it.
 */
final class LineSplitter implements Lines {

    private static final int BUFFER_SIZE = 1 << 20;
    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    private final InputStream in;
    private byte[] buf = new byte[BUFFER_SIZE];
    private int pos;
    private int limit;
    /** Stream offset of buf[0]. */
    private long bufBase;
    private boolean eof;

    private int lineOff;
    private int lineLen;
    private long lineStreamOffset;

    /** {@code prefix[0, n)} are bytes already taken from {@code in} (the magic-byte probe). */
    LineSplitter(InputStream in, byte[] prefix, int n) {
        this.in = in;
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
                return true;
            }
            if (eof) {
                if (pos < limit) {
                    lineOff = pos;
                    lineLen = limit - pos;
                    lineStreamOffset = bufBase + pos;
                    pos = limit;
                    return true;
                }
                return false;
            }
            scan = limit - fill();
        }
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

    /** Moves the unread tail to the front (growing for long lines) and reads more; returns the shift. */
    private int fill() throws WeftLogException {
        int shift = pos;
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            bufBase += pos;
            limit -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            buf = Arrays.copyOf(buf, buf.length * 2);
        }
        try {
            int n = in.read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                limit += n;
            }
        } catch (IOException e) {
            throw WeftLogException.io(RecordStream.describe(e), 0, e);
        }
        return shift;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
