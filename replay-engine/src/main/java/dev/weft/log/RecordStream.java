package dev.weft.log;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;

/**
 * The reading engine behind {@link LogReader}: splits the (decompressed) byte stream into lines (§1),
 * parses and checks the header, then parses each record and verifies op order and integrity chain in
 * the order of §9. Memory stays constant whatever the file size (one read buffer, grown only for a
 * longer line). Single-threaded; LogReader runs it on the caller's thread or on a background thread.
 */
final class RecordStream implements Closeable {

    private static final int BUFFER_SIZE = 1 << 20;
    private static final byte[] CLOSING_BRACE = {'}'};

    private final InputStream in;
    private final boolean gzip;
    private final LineParser parser = new LineParser();
    private final CanonBytes canon = new CanonBytes();
    private final long[] hashes = new long[2];

    private byte[] buf = new byte[BUFFER_SIZE];
    private int pos;
    private int limit;
    /** Stream offset of buf[0]. */
    private long bufBase;
    private boolean eof;

    private int lineOff;
    private int lineLen;
    private long lineStreamOffset;
    private long lineNo;

    private LogHeader header;
    private long chain;
    private long digest = Fnv1a.OFFSET_BASIS;
    private long count;
    private long lastRecordOffset = -1;
    private boolean finished;

    /** Opens the stream (gzip detected by magic) and reads and checks the header; closes raw on failure. */
    RecordStream(InputStream raw) throws WeftLogException {
        try {
            byte[] head = new byte[2];
            int n = raw.readNBytes(head, 0, 2);
            gzip = n == 2 && head[0] == 0x1f && head[1] == (byte) 0x8b;
            if (gzip) {
                // Inflating runs on its own thread, overlapping with parsing and hashing on this one.
                in = new ReadAheadInputStream(
                        new GzipMemberInputStream(new SequenceInputStream(new ByteArrayInputStream(head), raw)),
                        "weft-log-inflater");
            } else {
                in = raw;
                System.arraycopy(head, 0, buf, 0, n);
                limit = n;
            }
            readHeader();
        } catch (IOException e) {
            closeQuietly(raw);
            throw WeftLogException.io(describe(e), 0, e);
        } catch (WeftLogException e) {
            closeQuietly(raw);
            throw e;
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // the read error is the one worth reporting
        }
    }

    private void readHeader() throws WeftLogException {
        if (!nextLine()) {
            throw WeftLogException.malformed(1, "empty file");
        }
        lineNo = 1;
        if (!Utf8.isValid(buf, lineOff, lineLen)) {
            throw invalidUtf8();
        }
        String raw = new String(buf, lineOff, lineLen, StandardCharsets.UTF_8);
        try {
            header = parser.header(buf, lineOff, lineLen, raw);
        } catch (JsonSyntaxException e) {
            throw WeftLogException.malformed(1, e.getMessage());
        }
        if (!LogHeader.FORMAT.equals(header.format())) {
            throw WeftLogException.wrongFormat(header.format());
        }
        if (header.version() != LogHeader.VERSION) {
            throw WeftLogException.unsupportedVersion(header.version());
        }
        chain = Fnv1a.update(Fnv1a.OFFSET_BASIS, buf, lineOff, lineLen);
    }

    LogHeader header() {
        return header;
    }

    boolean isGzip() {
        return gzip;
    }

    /** The next verified record, or null at the end. After a failure the stream must not be read again. */
    LogRecord read() throws WeftLogException {
        if (finished) {
            return null;
        }
        return readRecord();
    }

    private LogRecord readRecord() throws WeftLogException {
        for (;;) {
            if (!nextLine()) {
                finished = true;
                return null;
            }
            lineNo++;
            if (lineLen == 0) {
                continue; // blank lines are skipped anywhere after the header (§1)
            }
            try {
                parser.record(buf, lineOff, lineLen);
            } catch (JsonSyntaxException e) {
                // The reference reads lines as UTF-8 before parsing: bad UTF-8 anywhere in the line wins.
                if (e.invalidUtf8() || !Utf8.isValid(buf, lineOff, lineLen)) {
                    throw invalidUtf8();
                }
                throw WeftLogException.malformed(lineNo, e.getMessage());
            }
            long n = count;
            if (parser.op != n) {
                throw WeftLogException.badOpOrder(n, parser.op, lineNo);
            }
            hashes[0] = chain;
            hashes[1] = digest;
            int prefixEnd = parser.canonPrefixEnd;
            if (prefixEnd >= 0) {
                // The line is already canonical: canon = line up to ,"chain" plus the closing brace.
                Fnv1a.update2(hashes, buf, lineOff, prefixEnd - lineOff);
                Fnv1a.update2(hashes, CLOSING_BRACE, 0, 1);
            } else {
                canon.reset();
                canon.record(parser.op, parser.vt, parser.event);
                Fnv1a.update2(hashes, canon.bytes(), 0, canon.length());
            }
            chain = hashes[0];
            digest = hashes[1];
            boolean chainOk = parser.chainOff >= 0
                    ? parser.chainLen == 16 && Fnv1a.matchesHex16(chain, buf, parser.chainOff)
                    : Fnv1a.hex16(chain).equals(parser.chainText);
            if (!chainOk) {
                throw WeftLogException.chainBroken(n, lineNo);
            }
            count = n + 1;
            lastRecordOffset = lineStreamOffset;
            return new LogRecord(n, parser.vt, parser.event, chain, lineNo);
        }
    }

    private WeftLogException invalidUtf8() {
        return WeftLogException.io("stream did not contain valid UTF-8 (line " + lineNo + ")", lineNo, null);
    }

    /** Records read so far. */
    long count() {
        return count;
    }

    /** Stream offset of the last record's line, -1 before the first. */
    long lastRecordOffset() {
        return lastRecordOffset;
    }

    /** Stream digest (§8) through the last record. */
    long digest() {
        return digest;
    }

    /** Chain value through the last record (c_0 before any). */
    long chain() {
        return chain;
    }

    // ---------------------------------------------------------------- line splitting (§1)

    /**
     * Finds the next line: split at '\n', one '\r' before it removed; a final line without terminator
     * still counts. Sets lineOff/lineLen/lineStreamOffset; false at the end of the stream.
     */
    private boolean nextLine() throws WeftLogException {
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

    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

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
            lineOff -= pos;
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
            throw WeftLogException.io(describe(e), 0, e);
        }
        return shift;
    }

    /** The OS/decoder message of an I/O failure, worded like the reference where it is a common case. */
    static String describe(IOException e) {
        if (e instanceof NoSuchFileException) {
            return "No such file or directory (os error 2): " + e.getMessage();
        }
        if (e instanceof AccessDeniedException) {
            return "Permission denied (os error 13): " + e.getMessage();
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
