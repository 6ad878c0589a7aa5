package dev.weft.log;

import dev.weft.json.JsonLineException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a weft-log v2 (plain or gzip, detected by the magic bytes) and verifies it as it goes, in the
 * order of weft-log-v2.md §9: the header on open, then per record op order and integrity chain. Memory
 * stays constant whatever the file size. Callers that must reject the whole log on any error read to
 * the end before acting on it.
 *
 * <p>Helper threads never change what is read, only how fast: gzip is inflated on a read-ahead thread;
 * for files of 1 MiB or more the integrity chain is folded on a helper thread beside the parser; and
 * {@link #openInBackground} also moves parsing off the caller's thread, a few thousand records ahead.
 * Always close a reader (try-with-resources): that stops its helper threads.
 */
public final class LogReader implements Closeable {

    private final RecordStream stream;
    private final BackgroundRecords background;

    private BackgroundRecords.Batch batch;
    private int batchPos;

    private long count;
    private long lastRecordOffset = -1;
    private long digest = Fnv1a.OFFSET_BASIS;
    private long chain;
    private boolean sawEnd;
    private boolean finished;
    private WeftLogException failure;

    /** Set when following a growing file: told when the {@code end} record arrives. */
    private TailingInputStream tail;

    /** The file's bytes as read, when opened on a path (progress). */
    private CountingInputStream file;

    private LogReader(RecordStream stream, boolean inBackground) {
        this.stream = stream;
        this.chain = stream.chain();
        this.background = inBackground ? new BackgroundRecords(stream) : null;
    }

    /** Files at least this large fold the integrity chain on a helper thread, beside the parser. */
    private static final long HASH_AHEAD_MIN_BYTES = 1 << 20;

    /** Opens a log file, reads and checks its header (§9 steps 1-4); records are read on next(). */
    public static LogReader open(Path path) throws WeftLogException {
        return open(path, false, isLarge(path));
    }

    /** Reads a log from a stream (closed by {@link #close()}, or here on failure). */
    public static LogReader open(InputStream raw) throws WeftLogException {
        return new LogReader(new RecordStream(raw, false), false);
    }

    /** Like {@link #open(InputStream)} with a maximum line length other than {@link LineLimit#maxLineBytes()}. */
    public static LogReader open(InputStream raw, int maxLineBytes) throws WeftLogException {
        return new LogReader(new RecordStream(raw, false, maxLineBytes), false);
    }

    /**
     * Like {@link #open(Path)} (header errors are thrown here), but records are parsed and verified on
     * a background thread. Close the reader to stop that thread early.
     */
    public static LogReader openInBackground(Path path) throws WeftLogException {
        return open(path, true, isLarge(path));
    }

    /**
     * Like {@link #openInBackground(Path)}; when the file is gzip, its decompressed bytes (header line included) are
     * also handed to {@code copy} as they are inflated, so a stream offset of this reader is an offset in that copy.
     */
    public static LogReader openInBackground(Path path, DecompressedCopy copy) throws WeftLogException {
        return open(path, true, isLarge(path), copy);
    }

    /**
     * Follows a recording that may still be written (weft-log-v2.md §10: every line is flushed as it is written).
     * {@link #next()} waits at the end of the file, and at a half-written last line, for more; it returns null once
     * the {@code end} record has been returned, or when the writer is gone ({@link #writerGone()}, or
     * {@code idleLimitMillis} &gt; 0 without growth) and what it wrote has been read. Opening waits for the header.
     * A file that shrinks while followed is an I/O error. See {@link #recordingState()}.
     */
    public static LogReader follow(Path path, long pollMillis, long idleLimitMillis) throws WeftLogException {
        return follow(path, pollMillis, idleLimitMillis, null);
    }

    /** Like {@link #follow(Path, long, long)}, copying a gzip log's decompressed bytes as {@link #openInBackground(Path, DecompressedCopy)} does. */
    public static LogReader follow(Path path, long pollMillis, long idleLimitMillis, DecompressedCopy copy)
            throws WeftLogException {
        TailingInputStream in;
        try {
            in = new TailingInputStream(path, pollMillis, idleLimitMillis);
        } catch (IOException e) {
            throw WeftLogException.io(RecordStream.describe(e), 0, e);
        }
        LogReader reader = new LogReader(new RecordStream(in, false, LineLimit.maxLineBytes(), copy), false);
        reader.tail = in;
        return reader;
    }

    /** When following: the writer will append nothing more; {@link #next()} reads what is there, then ends. */
    public void writerGone() {
        if (tail != null) {
            tail.writerGone();
        }
    }

    /**
     * Ended once the {@code end} record was returned; truncated if the followed file shrank or its writer was
     * declared gone without an {@code end}; else still recording (a log read to its end without an {@code end}
     * record when not following counts as truncated).
     */
    public RecordingState recordingState() {
        if (sawEnd) {
            return RecordingState.ENDED;
        }
        if (tail != null) {
            return tail.wasTruncated() || finished || failure != null && tail.writerDeclaredGone()
                    ? RecordingState.TRUNCATED : RecordingState.STILL_RECORDING;
        }
        return finished ? RecordingState.TRUNCATED : RecordingState.STILL_RECORDING;
    }

    /** Explicit choice of helper threads (tests cover every combination; results never depend on it). */
    static LogReader open(Path path, boolean background, boolean hashAhead) throws WeftLogException {
        return open(path, background, hashAhead, null);
    }

    private static LogReader open(Path path, boolean background, boolean hashAhead, DecompressedCopy copy)
            throws WeftLogException {
        CountingInputStream file = new CountingInputStream(openFile(path));
        LogReader reader = new LogReader(new RecordStream(file, hashAhead, LineLimit.maxLineBytes(), copy), background);
        reader.file = file;
        return reader;
    }

    private static boolean isLarge(Path path) {
        try {
            return Files.size(path) >= HASH_AHEAD_MIN_BYTES;
        } catch (IOException e) {
            return false; // opening will report the problem
        }
    }

    private static InputStream openFile(Path path) throws WeftLogException {
        try {
            return Files.newInputStream(path);
        } catch (IOException e) {
            throw WeftLogException.io(RecordStream.describe(e), 0, e);
        }
    }

    public LogHeader header() {
        return stream.header();
    }

    public boolean isGzip() {
        return stream.isGzip();
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
        return background == null ? nextDirect() : nextFromBackground();
    }

    private LogRecord nextDirect() throws WeftLogException {
        LogRecord r;
        try {
            r = stream.read();
        } catch (WeftLogException e) {
            failure = e;
            throw e;
        }
        if (r == null) {
            finished = true;
            return null;
        }
        return accept(r, stream.lastRecordOffset(), stream.digest());
    }

    private LogRecord nextFromBackground() throws WeftLogException {
        while (batch == null || batchPos == batch.size) {
            if (batch != null && batch.last) {
                if (batch.error != null) {
                    failure = batch.error;
                    throw failure;
                }
                finished = true;
                return null;
            }
            batch = background.take();
            batchPos = 0;
        }
        int i = batchPos++;
        LogRecord r = batch.records[i];
        batch.records[i] = null;
        return accept(r, batch.offsets[i], batch.digests[i]);
    }

    private LogRecord accept(LogRecord r, long offset, long digestAfter) {
        count = r.op() + 1;
        lastRecordOffset = offset;
        digest = digestAfter;
        chain = r.chain();
        if (r.event() instanceof Event.End) {
            sawEnd = true;
            if (tail != null) {
                tail.recordingEnded();
            }
        }
        return r;
    }

    /** Records returned so far. */
    public long recordsRead() {
        return count;
    }

    /** Byte offset of the last returned record's line in the (decompressed) stream, -1 before the first. */
    public long lastRecordOffset() {
        return lastRecordOffset;
    }

    /**
     * Bytes taken from the file so far (compressed bytes for gzip), a little ahead of the records returned (the
     * reader reads ahead); -1 when the reader was not opened on a file. For progress: divide by the file's size.
     */
    public long fileBytesRead() {
        return file == null ? -1 : file.count();
    }

    /** Whether an {@code end} event has been returned. */
    public boolean sawEnd() {
        return sawEnd;
    }

    /**
     * The stream digest (§8) over the records returned so far. Equal to the replayed digest whenever the
     * replay reproduced every record, so a replayer need not hash the canonical forms a second time.
     */
    public long streamDigest() {
        return digest;
    }

    /** The integrity chain value through the last returned record (c_0 of the header before any). */
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
        return parseRecordLine(bytes, 0, bytes.length, lineNo);
    }

    /** Like {@link #parseRecordLine(String, long)} over {@code bytes[off, off+len)}. */
    public static LogRecord parseRecordLine(byte[] bytes, int off, int len, long lineNo) throws WeftLogException {
        LineParser p = new LineParser();
        try {
            p.record(bytes, off, len);
        } catch (JsonLineException e) {
            throw WeftLogException.malformed(lineNo, e.getMessage());
        }
        String text = p.chainOff >= 0 ? new String(bytes, p.chainOff, p.chainLen, StandardCharsets.ISO_8859_1) : p.chainText;
        return new LogRecord(p.op, p.vt, p.event, parseChain(text), lineNo);
    }

    /**
     * Reads the one record line at the start of {@code in} (physical line {@code lineNo}) and parses it, in
     * bounded memory: long runs of white space outside strings are folded as they are read, as {@link #next()}
     * does, and the maximum line length applies. For random access to a line of any size.
     */
    public static LogRecord readRecordLine(InputStream in, long lineNo) throws WeftLogException {
        LineSplitter lines = new LineSplitter(in, new byte[0], 0, LineLimit.maxLineBytes(), Math.max(2, lineNo));
        if (!lines.next()) {
            throw WeftLogException.malformed(lineNo, "no record line at the indexed offset");
        }
        return parseRecordLine(lines.buf(), lines.off(), lines.len(), lineNo);
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

    @Override
    public void close() throws IOException {
        if (background != null) {
            background.close();
        }
        stream.close();
    }
}
