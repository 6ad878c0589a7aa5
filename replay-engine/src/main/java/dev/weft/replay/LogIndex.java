package dev.weft.replay;

import dev.weft.check.Invariants;
import dev.weft.check.Violation;
import dev.weft.core.CoreState;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecordingState;
import dev.weft.log.WeftLogException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * Random access into a recording: op → file offset, plus replay checkpoints every K ops, so "the state after op N"
 * costs one checkpoint copy plus fewer than K replay steps, whatever the log length.
 *
 * <p>Built in one streaming pass that also verifies the chain, replays with the given invariants and records how
 * far the file can be trusted ({@link #status()}). A file that fails part-way is still indexed up to the problem,
 * so the workbench can open it and point at the bad line. Gzip recordings are expanded once into a plain cache
 * file: their decompressed bytes, copied verbatim while the same pass reads them.
 */
public final class LogIndex implements Closeable {

    /** Receives every verified record once, in order, during {@link #build}; may be null. */
    public interface RecordSink {
        void accept(LogRecord record, Event replayed);
    }

    /** Progress during {@link #build}: fraction of the file read in [0,1] (of a gzip file: of its compressed bytes), and records so far. */
    public interface Progress {
        void update(double fraction, long records);
    }

    public static final int DEFAULT_CHECKPOINT_EVERY = 1024;

    private final Path source;
    private final Path plainFile;
    private final LogHeader header;
    private final long size;
    private final long[] offsets;
    private final int[] lines;
    private final int checkpointEvery;
    private final List<ReplayStepper> checkpoints;
    private final long replayableOps;
    private final IndexStatus status;
    private final long digest;
    private final List<Violation> violations;
    private final RandomAccessFile file;
    private RecordingState recordingState = RecordingState.STILL_RECORDING;

    private LogIndex(Path source, Path plainFile, LogHeader header, long size, long[] offsets, int[] lines,
                     int checkpointEvery, List<ReplayStepper> checkpoints, long replayableOps, IndexStatus status,
                     long digest, List<Violation> violations) throws IOException {
        this.source = source;
        this.plainFile = plainFile;
        this.header = header;
        this.size = size;
        this.offsets = offsets;
        this.lines = lines;
        this.checkpointEvery = checkpointEvery;
        this.checkpoints = checkpoints;
        this.replayableOps = replayableOps;
        this.status = status;
        this.digest = digest;
        this.violations = violations;
        this.file = new RandomAccessFile(plainFile.toFile(), "r");
    }

    /** Builds with the default fifo+dup invariants and checkpoints every {@value #DEFAULT_CHECKPOINT_EVERY} ops. */
    public static LogIndex build(Path path) throws WeftLogException, IOException {
        return build(path, List.of("per-channel-fifo", "no-duplicate-delivery"), DEFAULT_CHECKPOINT_EVERY, null, null,
                () -> false, defaultCacheDir());
    }

    /**
     * Indexes {@code path}. Throws {@link WeftLogException} only when not even the header can be read (nothing to
     * show); every later problem is recorded in {@link #status()} and the index covers the records before it.
     *
     * @throws CancellationException when {@code cancelled} turns true
     */
    public static LogIndex build(Path path, List<String> invariants, int checkpointEvery, RecordSink sink,
                                 Progress progress, BooleanSupplier cancelled, Path cacheDir)
            throws WeftLogException, IOException {
        return index(path, copy -> LogReader.openInBackground(path, copy), invariants, checkpointEvery, sink, progress,
                cancelled, cacheDir);
    }

    /**
     * Indexes a recording that may still be written ({@link LogReader#follow}): waits at the end of the file and at a
     * half-written last line for more, handing each record to {@code sink} as it arrives, until the {@code end}
     * record or {@code idleLimitMillis} without growth. {@link #recordingState()} then says ended or truncated.
     */
    public static LogIndex follow(Path path, List<String> invariants, int checkpointEvery, RecordSink sink,
                                  Progress progress, BooleanSupplier cancelled, Path cacheDir, long pollMillis,
                                  long idleLimitMillis) throws WeftLogException, IOException {
        return index(path, copy -> LogReader.follow(path, pollMillis, idleLimitMillis, copy), invariants,
                checkpointEvery, sink, progress, cancelled, cacheDir);
    }

    /** Opens the reader for {@link #index}, handing a gzip log's decompressed bytes to {@code copy} (null if plain). */
    private interface ReaderOpener {
        LogReader open(dev.weft.log.DecompressedCopy copy) throws WeftLogException;
    }

    /**
     * Opens the reader (a gzip file with its decompressed copy going to the cache), runs the pass, then closes the
     * reader before the cache (its inflating thread writes the cache) and the cache before the index reads it.
     */
    private static LogIndex index(Path path, ReaderOpener opener, List<String> invariants, int k, RecordSink sink,
                                  Progress progress, BooleanSupplier cancelled, Path cacheDir)
            throws WeftLogException, IOException {
        GzipCache cache = new GzipCache(cacheDir); // written to only if the reader finds gzip
        Pass pass;
        boolean gzip;
        try {
            LogReader reader;
            try {
                reader = opener.open(cache);
            } catch (WeftLogException e) {
                discard(cache);
                throw e;
            }
            try {
                gzip = reader.isGzip();
                pass = pass(path, reader, invariants, k, sink, progress, cancelled);
            } finally {
                reader.close();
            }
        } catch (IOException | RuntimeException e) {
            discard(cache);
            throw e;
        }
        cache.close();
        Path plain = gzip ? cache.file() : path;
        LogIndex index = new LogIndex(path, plain, pass.header, pass.read, pass.offsets.offsets, pass.offsets.lines, k,
                pass.checkpoints.list, pass.replayed, pass.status, pass.digest, pass.violations);
        index.recordingState = pass.recordingState;
        return index;
    }

    private static void discard(GzipCache cache) {
        try {
            cache.close();
        } catch (IOException ignored) {
            // the first problem is the one reported
        }
        cache.delete();
    }

    /** What one indexing pass found. */
    private record Pass(LogHeader header, long read, Offsets offsets, Checkpoints checkpoints, long replayed,
                        IndexStatus status, long digest, List<Violation> violations, RecordingState recordingState) {
    }

    private static Pass pass(Path path, LogReader reader, List<String> invariants, int k, RecordSink sink,
                             Progress progress, BooleanSupplier cancelled) throws IOException {
        LogHeader header = reader.header();
        ReplayStepper stepper = null;
        // As in `weft replay`, a file that does not verify is reported as such even when its header's net spec is
        // also unusable: the read error wins, so both tools name the same problem.
        IndexStatus headerProblem = null;
        try {
            // A recording made with a fault plan replays against the plan beside it (docs/fault-plans.md).
            stepper = ReplayStepper.create(header, Invariants.instantiate(invariants),
                    PlanSidecar.forRecording(path, header));
        } catch (ReplayException e) {
            headerProblem = new IndexStatus(IndexStatus.Kind.REPLAY_ERROR, 0, 1, e.getMessage(), null);
        } catch (PlanSidecar.Problem e) {
            headerProblem = new IndexStatus(IndexStatus.Kind.REPLAY_ERROR, 0, 1, e.getMessage(), null);
        }
        ReplayLoop loop = new ReplayLoop(reader, stepper, false, null);
        Offsets offsets = new Offsets();
        Checkpoints checkpoints = new Checkpoints(stepper, k);
        LoadProgress load = new LoadProgress(reader, Files.size(path), progress, cancelled);
        IndexStatus readProblem = null;
        try {
            loop.run(new ReplayLoop.Listener() {
                @Override
                public void before(LogRecord r, long n, boolean stepping) {
                    // A gzip log's cache holds its decompressed bytes verbatim: stream offsets are cache offsets.
                    offsets.add(reader.lastRecordOffset(), r.line());
                    if (stepping) {
                        checkpoints.before(n);
                    }
                }

                @Override
                public void after(LogRecord r, Event replayed) {
                    if (sink != null) {
                        sink.accept(r, replayed);
                    }
                    load.recordDone(offsets.size());
                }
            });
        } catch (WeftLogException e) {
            readProblem = new IndexStatus(IndexStatus.Kind.READ_ERROR, reader.recordsRead(), e.line(), e.getMessage(),
                    null);
        }
        load.finished(reader.recordsRead());
        IndexStatus status = firstProblem(loop, readProblem, headerProblem);
        List<Violation> violations = stepper == null ? List.of() : List.copyOf(stepper.violations());
        return new Pass(header, reader.recordsRead(), offsets, checkpoints, loop.replayed(), status, loop.digest(),
                violations, reader.recordingState());
    }

    /** The status of an index: the first of divergence / replay error in file order, else a read error, else the header. */
    private static IndexStatus firstProblem(ReplayLoop loop, IndexStatus readProblem, IndexStatus headerProblem) {
        ReplayLoop.Stop<Divergence> diverged = loop.divergence();
        if (diverged != null) {
            LogRecord r = diverged.at();
            return new IndexStatus(IndexStatus.Kind.DIVERGED, r.op(), r.line(),
                    "replay diverged at op " + Long.toUnsignedString(r.op()), diverged.what());
        }
        ReplayLoop.Stop<ReplayException> failed = loop.replayProblem();
        if (failed != null) {
            LogRecord r = failed.at();
            return new IndexStatus(IndexStatus.Kind.REPLAY_ERROR, r.op(), r.line(), failed.what().getMessage(), null);
        }
        if (readProblem != null) {
            return readProblem;
        }
        return headerProblem != null ? headerProblem : IndexStatus.OK_STATUS;
    }

    /** op → byte offset in the plain file and physical line number, grown as records are read. */
    private static final class Offsets {
        long[] offsets = new long[1024];
        int[] lines = new int[1024];
        private int size;

        void add(long offset, long line) {
            if (size == offsets.length) {
                offsets = Arrays.copyOf(offsets, offsets.length * 2);
                lines = Arrays.copyOf(lines, lines.length * 2);
            }
            offsets[size] = offset;
            lines[size] = (int) Math.min(Integer.MAX_VALUE, line);
            size++;
        }

        int size() {
            return size;
        }
    }

    /** A copy of the replay state before every K-th op, so stateAt replays fewer than K records. */
    private static final class Checkpoints {
        final List<ReplayStepper> list = new ArrayList<>();
        private final ReplayStepper stepper;
        private final int every;

        Checkpoints(ReplayStepper stepper, int every) {
            this.stepper = stepper;
            this.every = every;
        }

        void before(long n) {
            if (n % every == 0) {
                list.add(stepper.copyWithoutInvariants());
            }
        }
    }

    /** Reports progress and polls for cancellation every 4096 records. */
    private static final class LoadProgress {
        private final LogReader reader;
        private final long fileSize;
        private final Progress progress;
        private final BooleanSupplier cancelled;

        LoadProgress(LogReader reader, long fileSize, Progress progress, BooleanSupplier cancelled) {
            this.reader = reader;
            this.fileSize = fileSize;
            this.progress = progress;
            this.cancelled = cancelled;
        }

        void recordDone(long n) {
            if ((n & 4095) == 0) {
                if (cancelled.getAsBoolean()) {
                    throw new CancellationException("indexing cancelled");
                }
                if (progress != null) {
                    // Gzip: the compressed bytes read, since the decompressed offset is not comparable to the size.
                    long at = reader.isGzip() ? reader.fileBytesRead() : reader.lastRecordOffset();
                    progress.update(Math.min(1.0, (double) at / Math.max(1, fileSize)), n);
                }
            }
        }

        void finished(long n) {
            if (progress != null) {
                progress.update(1.0, n);
            }
        }
    }

    /** Where gzip recordings are expanded: the user's cache directory. */
    public static Path defaultCacheDir() {
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("weft").resolve("index");
    }

    public Path source() {
        return source;
    }

    public LogHeader header() {
        return header;
    }

    /** Number of verified records (all of them when {@link #status()} is not a read error). */
    public long size() {
        return size;
    }

    public IndexStatus status() {
        return status;
    }

    /** Whether the indexed recording ended ({@code end} read), was truncated, or (read without following) lacks its end. */
    public RecordingState recordingState() {
        return recordingState;
    }

    /** Records that could be replayed (stepping stops at a replay error). */
    public long replayableOps() {
        return replayableOps;
    }

    /** Stream digest over the replayed records. */
    public long digest() {
        return digest;
    }

    /** Violations of the invariants the index was built with, in the order raised. */
    public List<Violation> violations() {
        return violations;
    }

    /** The record at {@code op} (0 ≤ op &lt; size), read from disk. */
    public synchronized LogRecord record(long op) throws IOException {
        checkOp(op);
        return records(op, op).get(0);
    }

    /**
     * Records {@code from..to} (inclusive) with one positioned read of their byte range: stateAt replays up to K
     * consecutive records, and the workbench's table reads blocks of rows; one read instead of one per record.
     * A range larger than {@link #READ_WINDOW_BYTES} (a record padded with huge white space, say) is read one
     * record at a time instead, the large ones streamed with their white space folded: memory stays bounded
     * whatever the lines' sizes.
     */
    public synchronized List<LogRecord> records(long from, long to) throws IOException {
        checkOp(from);
        checkOp(to);
        if (to < from) {
            throw new IllegalArgumentException("empty range " + from + ".." + to);
        }
        long start = offsets[(int) from];
        long end = endOf(to);
        if (end - start > READ_WINDOW_BYTES) {
            List<LogRecord> out = new ArrayList<>((int) (to - from + 1));
            for (long op = from; op <= to; op++) {
                out.add(endOf(op) - offsets[(int) op] > READ_WINDOW_BYTES ? streamed(op) : records(op, op).get(0));
            }
            return out;
        }
        byte[] bytes = new byte[(int) (end - start)];
        file.seek(start);
        file.readFully(bytes);
        List<LogRecord> out = new ArrayList<>((int) (to - from + 1));
        for (long op = from; op <= to; op++) {
            int lineStart = (int) (offsets[(int) op] - start);
            int lineEnd = lineStart;
            while (lineEnd < bytes.length && bytes[lineEnd] != '\n') {
                lineEnd++;
            }
            int len = lineEnd - lineStart;
            if (len > 0 && bytes[lineStart + len - 1] == '\r') {
                len--;
            }
            try {
                out.add(LogReader.parseRecordLine(bytes, lineStart, len, lines[(int) op]));
            } catch (WeftLogException e) {
                throw rereadFailed(op, e);
            }
        }
        return out;
    }

    /** Largest byte range read into one array by {@link #records}; larger ranges go record by record. */
    static final long READ_WINDOW_BYTES = 8L << 20;

    /** The offset just past the line of {@code op}. */
    private long endOf(long op) throws IOException {
        return op + 1 < size ? offsets[(int) (op + 1)] : endOfLine(offsets[(int) op]);
    }

    /** One record read as a stream from its offset, folding its white space as the reader does. */
    private LogRecord streamed(long op) throws IOException {
        file.seek(offsets[(int) op]);
        // Not closed: closing it would close the file; reads stop at the line's end (or the line limit).
        InputStream in = Channels.newInputStream(file.getChannel());
        try {
            return LogReader.readRecordLine(in, lines[(int) op]);
        } catch (WeftLogException e) {
            throw rereadFailed(op, e);
        }
    }

    private IOException rereadFailed(long op, WeftLogException e) {
        return new IOException("re-reading op " + op + " of " + source + ": " + e.getMessage(), e);
    }

    /** The offset just past the line starting at {@code from} (its newline included, or the end of the file). */
    private long endOfLine(long from) throws IOException {
        byte[] chunk = new byte[8192];
        long pos = from;
        file.seek(from);
        int n;
        while ((n = file.read(chunk)) > 0) {
            for (int i = 0; i < n; i++) {
                if (chunk[i] == '\n') {
                    return pos + i + 1;
                }
            }
            pos += n;
        }
        return pos;
    }

    /** The broker core state right after op {@code op}: one checkpoint copy plus fewer than K replay steps. */
    public CoreState stateAt(long op) throws IOException {
        checkOp(op);
        if (op >= replayableOps) {
            throw new IllegalArgumentException("op " + op + " is past the last replayable op (" + replayableOps + ")");
        }
        int cp = (int) ((op + 1) / checkpointEvery);
        if (cp >= checkpoints.size()) {
            cp = checkpoints.size() - 1;
        }
        ReplayStepper stepper = checkpoints.get(cp).copyWithoutInvariants();
        long first = (long) cp * checkpointEvery;
        if (first <= op) {
            for (LogRecord r : records(first, op)) {
                try {
                    stepper.step(r);
                } catch (ReplayException e) {
                    throw new IllegalStateException("op " + r.op() + " replayed during indexing but not now", e);
                }
            }
        }
        return stepper.core().snapshot();
    }

    private void checkOp(long op) {
        if (op < 0 || op >= size) {
            throw new IndexOutOfBoundsException("op " + op + " not in 0.." + (size - 1));
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
        if (!plainFile.equals(source)) {
            Files.deleteIfExists(plainFile);
        }
    }
}
