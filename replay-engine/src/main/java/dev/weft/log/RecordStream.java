package dev.weft.log;

import dev.weft.json.JsonLineException;
import dev.weft.json.Utf8;

import dev.weft.text.OsErrorText;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;

/**
 * The reading engine behind {@link LogReader}: takes lines from a {@link Lines} source (§1), parses and
 * checks the header, then parses each record and verifies op order and integrity chain in the order of
 * §9. Memory stays constant whatever the file size. Not thread-safe: one consumer thread at a time
 * (LogReader's caller, or its background thread); the line source may use helper threads of its own.
 */
final class RecordStream implements Closeable {

    private static final byte[] CLOSING_BRACE = {'}'};

    private final Lines lines;
    private final boolean gzip;
    private final LineParser parser = new LineParser();
    /** Which format extensions the records so far announced (a TCP record needs the tcp ext record before it). */
    private final LogExtensions extensions = new LogExtensions();
    private final CanonBytes canon = new CanonBytes();
    private final long[] hashes = new long[2];
    /** Whether chain values computed ahead by the line source are still trustworthy. */
    private boolean useSpeculation;

    private long lineNo;

    private LogHeader header;
    private long chain;
    private long digest = Fnv1a.OFFSET_BASIS;
    private long count;
    private long lastRecordOffset = -1;
    private boolean finished;

    /**
     * Opens the stream (gzip detected by magic) and reads and checks the header; closes raw on failure.
     * With {@code hashAhead}, line splitting and hashing run on a helper thread (worth it for large logs);
     * gzip is always inflated on a helper thread.
     */
    RecordStream(InputStream raw, boolean hashAhead) throws WeftLogException {
        this(raw, hashAhead, LineLimit.maxLineBytes());
    }

    RecordStream(InputStream raw, boolean hashAhead, int maxLineBytes) throws WeftLogException {
        this(raw, hashAhead, maxLineBytes, null);
    }

    /** With {@code copy}: a gzip log's decompressed bytes also go there as they are inflated (ignored for plain logs). */
    RecordStream(InputStream raw, boolean hashAhead, int maxLineBytes, DecompressedCopy copy) throws WeftLogException {
        Lines opened = null;
        boolean gzipMagic = false;
        try {
            byte[] head = new byte[2];
            int n = raw.readNBytes(head, 0, 2);
            gzipMagic = n == 2 && head[0] == 0x1f && head[1] == (byte) 0x8b;
            gzip = gzipMagic;
            LineSplitter splitter;
            if (gzip) {
                // Inflating (and copying out, when asked) runs on its own thread, overlapping with parsing and hashing.
                InputStream inflated = new GzipMemberInputStream(new SequenceInputStream(new ByteArrayInputStream(head), raw));
                if (copy != null) {
                    inflated = new CopyingInputStream(inflated, copy);
                }
                splitter = new LineSplitter(new ReadAheadInputStream(inflated, "weft-log-inflater"), head, 0, maxLineBytes);
            } else {
                splitter = new LineSplitter(raw, head, n, maxLineBytes);
            }
            opened = hashAhead ? new HashAheadLines(splitter) : splitter;
            useSpeculation = hashAhead;
            lines = opened;
            readHeader();
        } catch (IOException e) {
            closeQuietly(opened, raw);
            // Before any line was read: a bad gzip header (or an unreadable start); the place is line 1.
            throw WeftLogException.io(describe(e) + (gzipMagic ? " (in the gzip header, before line 1)" : " (before line 1)"), 1, e);
        } catch (WeftLogException e) {
            closeQuietly(opened, raw);
            throw e;
        }
    }

    private static void closeQuietly(Lines lines, InputStream raw) {
        try {
            if (lines != null) {
                lines.close();
            } else {
                raw.close();
            }
        } catch (IOException ignored) {
            // the read error is the one worth reporting
        }
    }

    private void readHeader() throws WeftLogException {
        if (!lines.next()) {
            throw WeftLogException.malformed(1, "empty file");
        }
        lineNo = 1;
        byte[] buf = lines.buf();
        int lineOff = lines.off();
        int lineLen = lines.len();
        if (!Utf8.isValid(buf, lineOff, lineLen)) {
            throw invalidUtf8();
        }
        String raw = new String(buf, lineOff, lineLen, StandardCharsets.UTF_8);
        try {
            header = parser.header(buf, lineOff, lineLen, raw);
        } catch (JsonLineException e) {
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
            if (!lines.next()) {
                finished = true;
                return null;
            }
            lineNo++;
            int lineLen = lines.len();
            if (lineLen == 0) {
                continue; // blank lines are skipped anywhere after the header (§1)
            }
            byte[] buf = lines.buf();
            int lineOff = lines.off();
            try {
                parser.record(buf, lineOff, lineLen);
            } catch (JsonLineException e) {
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
            if (parser.event instanceof Event.Ext || parser.event.isTcp()) {
                extensions.check(parser.event, lineNo);
            }
            hashes[0] = chain;
            hashes[1] = digest;
            int prefixEnd = parser.canonPrefixEnd;
            // Hashed ahead over exactly the canonical prefix the parser confirmed, or from here on the chain is folded
            // on this thread.
            if (useSpeculation && !lines.hashedAhead(prefixEnd - lineOff, hashes)) {
                useSpeculation = false;
                lines.stopSpeculating();
            }
            if (useSpeculation) {
                // done above
            } else if (prefixEnd >= 0) {
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
            lastRecordOffset = lines.streamOffset();
            return new LogRecord(n, parser.vt, parser.event, chain, lineNo);
        }
    }

    private WeftLogException invalidUtf8() {
        return WeftLogException.io("stream did not contain valid UTF-8 (line " + lineNo + ")", lineNo, null);
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

    /** The OS/decoder message of an I/O failure, worded like the reference where it is a common case. */
    static String describe(IOException e) {
        return OsErrorText.of(e);
    }

    @Override
    public void close() throws IOException {
        lines.close();
    }
}
