package dev.weft.broker.record;

import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.text.OsErrorText;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import dev.weft.io.AtomicFile;
import dev.weft.io.OutputTarget;
import java.util.function.Consumer;

/**
 * Streams the broker's operations to a weft-log v2 through the engine's {@link LogWriter} (canonical form, gzip
 * for {@code .gz}).
 *
 * <p>Group commit: {@link #record} runs under the broker's ordering lock and only serializes the line into
 * memory (the order of lines is the linearization); {@link #drain} — called by each connection thread before it
 * sends a reply, outside the ordering lock — writes everything pending in one system call. So no file write
 * holds up the other nodes, yet every record is on its way to the file before any node sees the reply that
 * depends on it.
 *
 * <p>When the file cannot be written any more (a full disk, a quota, a vanished device) the recorder cuts it
 * back to the last whole line — so the log stays a chain-valid prefix — prints one clear line, and stops
 * recording while the run goes on.
 */
public final class LogRecorder implements Recorder {
    /** {@code meta.weft_version} of live recordings (weft-log-v2.md §3). */
    public static final String WEFT_VERSION = "0.0.2";

    /**
     * Lines serialized but not yet written. A batch is always whole lines, counted by their newlines: a drain
     * that runs between a line's write and its writer's flush must neither split the line nor lose its count
     * (it did: the error line of a full disk said one record fewer than the file kept).
     */
    private static final class Staging extends OutputStream {
        private ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);

        @Override
        public synchronized void write(int b) {
            bytes.write(b);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            bytes.write(b, off, len);
        }

        /** Takes the whole lines pending (a partial last line stays); their count goes to {@code linesOut[0]}. */
        synchronized byte[] take(long[] linesOut) {
            byte[] all = bytes.toByteArray();
            int end = all.length;
            while (end > 0 && all[end - 1] != '\n') {
                end--;
            }
            bytes = new ByteArrayOutputStream(Math.max(256, Math.min(all.length, 1 << 20)));
            bytes.write(all, end, all.length - end);
            long lines = 0;
            for (int i = 0; i < end; i++) {
                if (all[i] == '\n') {
                    lines++;
                }
            }
            linesOut[0] = lines;
            return end == all.length ? all : java.util.Arrays.copyOf(all, end);
        }
    }

    private final Path path;
    private final CommittingFileOutput file;
    private final SealableGzipOutput gzip;
    private final Staging staging = new Staging();
    private final LogWriter writer;
    private final Consumer<String> diagnostics;
    /** One drainer at a time, so batches reach the file in the order they were taken. */
    private final Object drainLock = new Object();
    /** Lines (header included) known to be in the file. */
    private long committedLines;
    private volatile boolean failed;
    private boolean finished;
    /** Closed (a second close, or a record or drain after it, does nothing: an interrupt may close early). */
    private volatile boolean closed;

    private LogRecorder(Path path, CommittingFileOutput file, long seed, String net, long windowNs, String hosts,
            String plan, Consumer<String> diagnostics) throws IOException {
        this.path = path;
        this.file = file;
        boolean gz = path.getFileName() != null && path.getFileName().toString().endsWith(".gz");
        this.gzip = gz ? new SealableGzipOutput(file) : null;
        this.diagnostics = diagnostics;
        this.writer = LogWriter.create(staging, false, seed, net, windowNs, new LogMeta(null, WEFT_VERSION, null, hosts,
                plan));
    }

    /** Creates (truncates) the log and writes its header; gzip iff the file name ends in {@code .gz}. */
    public static LogRecorder create(Path path, long seed, String net, Consumer<String> diagnostics)
            throws IOException {
        return create(path, seed, net, 0, diagnostics);
    }

    /** As {@link #create(Path, long, String, Consumer)} with the header's {@code window_ns} (a windowed run). */
    public static LogRecorder create(Path path, long seed, String net, long windowNs, Consumer<String> diagnostics)
            throws IOException {
        return create(path, seed, net, windowNs, null, diagnostics);
    }

    /**
     * As {@link #create(Path, long, String, long, Consumer)} with our {@code meta.hosts} member: the host→node map
     * of a run placed on host agents; null for a run on one machine, whose header keeps the spec's members only.
     */
    public static LogRecorder create(Path path, long seed, String net, long windowNs, String hosts,
            Consumer<String> diagnostics) throws IOException {
        return create(path, seed, net, windowNs, hosts, null, diagnostics);
    }

    /**
     * As {@link #create(Path, long, String, long, String, Consumer)} with our {@code meta.plan} member: the digest of
     * the fault plan the run follows (docs/fault-plans.md); null for a seeded run, whose header is unchanged.
     */
    public static LogRecorder create(Path path, long seed, String net, long windowNs, String hosts, String plan,
            Consumer<String> diagnostics) throws IOException {
        // The log is begun beside its final name and renamed into place once its header is on disk: a disk that
        // is full (or a run interrupted) before that leaves no file and the previous one untouched, never a
        // 0-byte log. A live follower sees the file from its first record on; a symlink is followed, and a
        // directory, FIFO or device refused (cutting back to a whole line needs a regular file).
        OutputTarget target = OutputTarget.of(path);
        if (target.kind() == OutputTarget.Kind.STREAM) {
            throw new OutputTarget.OutputRefusedException(path, "a recording must be a regular file (it is cut back to the"
                    + " last whole record when the disk fills); this is a FIFO or a device");
        }
        Path temp = AtomicFile.tempBeside(target.path());
        temp.toFile().deleteOnExit(); // an interrupt before the rename leaves nothing behind
        LogRecorder r = create(path, new CommittingFileOutput(CommittingFileOutput.openTruncated(temp)), seed, net,
                windowNs, hosts, plan, diagnostics, temp);
        try {
            try {
                Files.move(temp, target.path(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target.path(), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            r.file.close();
            Files.deleteIfExists(temp);
            throw e;
        }
        AtomicFile.syncDirectory(target.path().getParent());
        return r;
    }

    /** As {@link #create(Path, long, String, Consumer)} over a given file output (tests simulate a full disk). */
    public static LogRecorder create(Path path, CommittingFileOutput file, long seed, String net,
            Consumer<String> diagnostics) throws IOException {
        return create(path, file, seed, net, 0, null, null, diagnostics, null);
    }

    /** {@code written}: the file {@code file} writes (deleted if the header cannot be written), or null. */
    private static LogRecorder create(Path path, CommittingFileOutput file, long seed, String net, long windowNs,
            String hosts, String plan, Consumer<String> diagnostics, Path written) throws IOException {
        LogRecorder r;
        try {
            r = new LogRecorder(path, file, seed, net, windowNs, hosts, plan, diagnostics);
            // the header must reach the disk now: a log that cannot even start is a usage error, not a prefix
            r.writeOut(true);
        } catch (IOException | RuntimeException e) {
            file.close();
            if (written != null) {
                Files.deleteIfExists(written);
            }
            throw e;
        }
        return r;
    }

    public Path path() {
        return path;
    }

    /** Records known to be in the file. */
    public long count() {
        synchronized (drainLock) {
            return Math.max(0, committedLines - 1);
        }
    }

    @Override
    public void record(long vt, Event e) {
        if (failed || finished || closed) {
            return;
        }
        try {
            writer.append(vt, e);
        } catch (IOException ex) {
            throw new IllegalStateException("in-memory staging cannot fail", ex);
        }
    }

    @Override
    public void finish(long vt, long sent, long dropped) {
        if (failed || finished) {
            return;
        }
        record(vt, new Event.End(writer.count() + 1, sent, dropped));
        finished = true;
    }

    @Override
    public void drain() {
        try {
            writeOut(false);
        } catch (IOException e) {
            // reported by writeOut
        }
    }

    /** Writes everything staged; on failure cuts the file back, reports once, and (if asked) rethrows. */
    private void writeOut(boolean rethrow) throws IOException {
        synchronized (drainLock) {
            if (failed || closed) {
                return;
            }
            long[] lines = new long[1];
            byte[] batch = staging.take(lines);
            if (batch.length == 0) {
                return;
            }
            OutputStream target = gzip != null ? gzip : file;
            try {
                target.write(batch);
                target.flush();
                committedLines += lines[0];
            } catch (IOException ex) {
                if (rethrow) {
                    failed = true; // the caller reports it (a log that cannot start is not a prefix)
                    throw ex;
                }
                fail(ex);
            }
        }
    }

    @Override
    public boolean healthy() {
        return !failed;
    }

    private void fail(IOException cause) {
        failed = true;
        String why = OsErrorText.of(cause);
        String repaired;
        try {
            if (gzip != null) {
                gzip.seal();
            } else {
                file.rollBack();
            }
            repaired = "it keeps the first " + Math.max(0, committedLines - 1) + " record(s), a chain-valid prefix";
        } catch (IOException again) {
            repaired = "cutting it back to the last whole record failed too (" + OsErrorText.of(again)
                    + "); it may end in a partial line";
        }
        diagnostics.accept("weft: recording stopped: " + path + ": " + why + "; " + repaired
                + " (verify: weft replay " + path + ")");
    }

    @Override
    public void close() {
        drain();
        synchronized (drainLock) {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (failed) {
                    if (gzip != null) {
                        gzip.abandon();
                    } else {
                        file.close();
                    }
                } else if (gzip != null) {
                    gzip.close();
                } else {
                    file.close();
                }
            } catch (IOException ex) {
                if (!failed) {
                    fail(ex);
                }
                try {
                    file.close();
                } catch (IOException ignored) {
                    // the failure was reported above; nothing more can be done with this file
                }
            }
        }
    }
}
