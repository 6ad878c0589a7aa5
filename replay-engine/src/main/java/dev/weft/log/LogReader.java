package dev.weft.log;

import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Streams a weft-log v2 (plain or gzip, detected by the magic bytes) and verifies it as it goes, in the
 * order of weft-log-v2.md §9: header on open, then per record op order and integrity chain. Memory stays
 * constant whatever the file size (one read buffer, grown only for a longer line). Callers that must
 * reject the whole log on any error simply read to the end before acting.
 */
public final class LogReader implements Closeable {

    private static final int BUFFER_SIZE = 1 << 20;

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
    private boolean sawEnd;
    private boolean finished;
    private WeftLogException failure;

    private LogReader(InputStream raw) throws WeftLogException {
        try {
            byte[] head = new byte[2];
            int n = raw.readNBytes(head, 0, 2);
            gzip = n == 2 && head[0] == 0x1f && head[1] == (byte) 0x8b;
            if (gzip) {
                in = new GzipMemberInputStream(new SequenceInputStream(new ByteArrayInputStream(head), raw));
            } else {
                in = raw;
                System.arraycopy(head, 0, buf, 0, n);
                limit = n;
            }
        } catch (IOException e) {
            throw WeftLogException.io(describe(e), 0, e);
        }
        readHeader();
    }

    /** Opens a log file, reads and checks its header (§9 steps 1-4). */
    public static LogReader open(Path path) throws WeftLogException {
        InputStream raw;
        try {
            raw = Files.newInputStream(path);
        } catch (IOException e) {
            throw WeftLogException.io(describe(e), 0, e);
        }
        return open(raw);
    }

    /** Reads a log from a stream (closed by {@link #close()}, or on failure here). */
    public static LogReader open(InputStream raw) throws WeftLogException {
        try {
            return new LogReader(raw);
        } catch (WeftLogException e) {
            try {
                raw.close();
            } catch (IOException ignored) {
                // the read error is the one worth reporting
            }
            throw e;
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

    public LogHeader header() {
        return header;
    }

    public boolean isGzip() {
        return gzip;
    }

    /**
     * The next verified record, or null at the end of the log. The first failure is thrown again by
     * every later call.
     */
    public LogRecord next() throws WeftLogException {
        if (failure != null) {
            throw failure;
        }
        if (finished) {
            return null;
        }
        try {
            return readRecord();
        } catch (WeftLogException e) {
            failure = e;
            throw e;
        }
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
            canon.reset();
            canon.record(parser.op, parser.vt, parser.event);
            hashes[0] = chain;
            hashes[1] = digest;
            Fnv1a.update2(hashes, canon.bytes(), 0, canon.length());
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
            Event e = parser.event;
            if (e instanceof Event.End) {
                sawEnd = true;
            }
            return new LogRecord(n, parser.vt, e, chain, lineNo);
        }
    }

    private WeftLogException invalidUtf8() {
        return WeftLogException.io("stream did not contain valid UTF-8 (line " + lineNo + ")", lineNo, null);
    }

    /** Records returned so far. */
    public long recordsRead() {
        return count;
    }

    /** Byte offset of the last returned record's line in the (decompressed) stream, -1 before the first. */
    public long lastRecordOffset() {
        return lastRecordOffset;
    }

    /** Whether an {@code end} event has been read. */
    public boolean sawEnd() {
        return sawEnd;
    }

    /** The stream digest (§8) over the records returned so far. */
    public long streamDigest() {
        return digest;
    }

    /** The integrity chain value through the last returned record (c_0 from the header before any). */
    public long chain() {
        return chain;
    }

    /** Reads to the end, verifying everything; returns the number of records. */
    public long verifyAll() throws WeftLogException {
        while (next() != null) {
            // verification happens in next()
        }
        return count;
    }

    /**
     * Parses one record line (no terminator) without any op-order or chain check. The record's chain is
     * the value of its {@code chain} member when that is 16 lowercase hex digits, else 0.
     */
    public static LogRecord parseRecordLine(String line, long lineNo) throws WeftLogException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        LineParser p = new LineParser();
        try {
            p.record(bytes, 0, bytes.length);
        } catch (JsonSyntaxException e) {
            throw WeftLogException.malformed(lineNo, e.getMessage());
        }
        String text = p.chainOff >= 0 ? new String(bytes, p.chainOff, p.chainLen, StandardCharsets.ISO_8859_1) : p.chainText;
        return new LogRecord(p.op, p.vt, p.event, parseChain(text), lineNo);
    }

    private static long parseChain(String text) {
        if (text.length() != 16) {
            return 0;
        }
        for (int i = 0; i < 16; i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return 0;
            }
        }
        return Long.parseUnsignedLong(text, 16);
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

    private static int indexOfNewline(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
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
