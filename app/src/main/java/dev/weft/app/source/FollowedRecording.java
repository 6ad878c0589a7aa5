package dev.weft.app.source;

import dev.weft.check.Invariant;
import dev.weft.check.Invariants;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecordingState;
import dev.weft.log.WeftLogException;
import dev.weft.replay.LogIndex;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CancellationException;

/**
 * A recording followed while another process writes it ({@code weft run --record}): a thread of its own drives the
 * replay engine's follow mode ({@link LogIndex#follow}), which waits at a half-written last line instead of calling
 * it corrupt, and collects every verified record as it arrives. Any thread may take a {@link #snapshot()} of what has
 * arrived; nothing here ever blocks the caller on the file.
 *
 * <p>Following stops at the {@code end} record (the result is then the same source a plain open gives), on
 * {@link #stop()}, or when the file is truncated, replaced or deleted ({@link #checkFile()}); the result is then the
 * last snapshot. {@link #outcome()} tells which, in words that name the file.
 */
public final class FollowedRecording implements AutoCloseable {

    /** How it stopped: the source to show from then on and a sentence for the user. */
    public record Outcome(RecordingState state, RecordingSource source, String message, boolean failed) { }

    private final Path path;
    private final long pollMillis;
    private final Thread thread;
    private final Object lock = new Object();
    private final RecordCollector collected = new RecordCollector();
    private final GrowingRecords records = new GrowingRecords();
    private final List<Invariant> invariants = Invariants.instantiate(IndexedRecordingSource.BUILD_INVARIANTS);
    private final List<ViolationInfo> replayViolations = new ArrayList<>();
    private final Object fileKey;
    private volatile LogHeader header;
    private volatile boolean stopRequested;
    private volatile String stopReason;
    private volatile Outcome outcome;
    private final Runnable onStopped;

    private FollowedRecording(Path path, long pollMillis, Object fileKey, Runnable onStopped) {
        this.path = path;
        this.pollMillis = pollMillis;
        this.fileKey = fileKey;
        this.onStopped = onStopped;
        thread = new Thread(this::run, "workbench-follow");
        thread.setDaemon(true);
    }

    /**
     * Starts following {@code file}, polling for growth every {@code pollMillis}; {@code onStopped} runs on the
     * follow thread once {@link #outcome()} is set.
     */
    public static FollowedRecording start(Path file, long pollMillis, Runnable onStopped) throws RecordingOpener.OpenException {
        if (!Files.isRegularFile(file)) {
            throw new RecordingOpener.OpenException(file + ": " + (Files.exists(file) ? "not a regular file" : "no such file"));
        }
        FollowedRecording f = new FollowedRecording(file, pollMillis, fileKeyOf(file), onStopped);
        f.thread.start();
        return f;
    }

    public Path path() { return path; }

    /** Records read and verified so far. */
    public int size() { return records.size(); }

    /** Null while following; afterwards how it stopped. */
    public Outcome outcome() { return outcome; }

    /**
     * What has arrived so far as an immutable source, or null before the header line has been written. Cost: a copy of
     * the timeline's columns (about 16 bytes a record), so callers take one per batch of records, not per record.
     */
    public RecordingSource snapshot() {
        LogHeader h = header;
        if (h == null) return null;
        synchronized (lock) {
            return new FollowSnapshot(path, h, records.view(), collected.timeline.snapshot(), collected.reports.build(),
                    ProtocolChecks.none(), collected.recorded, replayViolations, Verification.recordingSoFar(),
                    new FollowSnapshot.StateCache());
        }
    }

    /** Stops following (the user asked); what was read so far stays. */
    public void stop() {
        stopWith(null);
    }

    /**
     * Stops following if the file was replaced by another (a new file under the same name) or deleted: the follower
     * reads the file it opened, so it would otherwise wait for ever. Cheap; call it now and then.
     */
    public void checkFile() {
        if (outcome != null || stopRequested) return;
        try {
            Object now = fileKeyOf(path);
            if (fileKey != null && !fileKey.equals(now)) stopWith(path + " was replaced by another file");
        } catch (RecordingOpener.OpenException e) {
            stopWith(path + " was deleted");
        }
    }

    private void stopWith(String reason) {
        if (stopRequested) return;
        stopReason = reason;
        stopRequested = true;
        thread.interrupt();   // wakes the follower where it waits for the file to grow
    }

    /** Waits up to {@code millis} for following to stop; true if it has. */
    public boolean awaitStopped(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return outcome != null;
    }

    @Override
    public void close() {
        stop();
    }

    private void run() {
        Outcome result;
        try {
            header = readHeader();
            LogIndex index = LogIndex.follow(path, IndexedRecordingSource.BUILD_INVARIANTS, LogIndex.DEFAULT_CHECKPOINT_EVERY,
                    (record, replayed) -> arrived(record, replayed), null, () -> stopRequested,
                    LogIndex.defaultCacheDir(), pollMillis, 0);
            result = finished(index);
        } catch (CancellationException e) {
            result = stopped();
        } catch (WeftLogException e) {
            result = stopRequested ? stopped() : failed(path + ": " + e.getMessage());
        } catch (IOException e) {
            result = stopRequested ? stopped() : failed(path + ": I/O error: " + e.getMessage());
        } catch (RuntimeException e) {
            result = stopRequested ? stopped() : failed(path + ": following failed: " + e);
        }
        outcome = result;
        onStopped.run();
    }

    /** The header alone, waited for like the records (the index hands out records only). */
    private LogHeader readHeader() throws WeftLogException, IOException {
        try (LogReader r = LogReader.follow(path, pollMillis, 0)) {
            return r.header();
        }
    }

    private void arrived(LogRecord record, Event replayed) {
        if (stopRequested) throw new CancellationException("stopped following");
        synchronized (lock) {
            collected.accept(record);
            // The same check the index runs, on our own instances, so the violations grow with the records.
            if (replayed != null && replayed.isBrokerOperation()) {
                for (Invariant i : invariants) {
                    String msg = i.offer(record.op(), record.vt(), replayed);
                    if (msg != null) replayViolations.add(new ViolationInfo(i.name(), record.op(), record.vt(), msg));
                }
            }
            records.add(record);
        }
    }

    private Outcome finished(LogIndex index) throws IOException {
        if (stopRequested) {
            index.close();
            return stopped();
        }
        if (index.recordingState() == RecordingState.ENDED) {
            // Complete: from now on the same source a plain open gives (seeks and checkpoints instead of memory).
            RecordingSource done;
            synchronized (lock) {
                done = IndexedRecordingSource.of(path, index, collected);
            }
            String verdict = done.verification().ok() ? "verified, digest " + done.verification().digest()
                    : done.verification().message();
            return new Outcome(RecordingState.ENDED, done,
                    path.getFileName() + ": recording ended — " + count(done.size()) + " · " + verdict, false);
        }
        // Truncated or cut off: the file no longer holds what was read, so keep the records in memory.
        String why = index.status().message();
        index.close();
        return new Outcome(RecordingState.TRUNCATED, snapshot(),
                "stopped following " + path + ": " + (why == null || why.isEmpty() ? "the recording stopped without its end record" : why)
                        + " — showing the " + count(size()) + " read before", true);
    }

    private Outcome stopped() {
        RecordingSource last = snapshot();
        String reason = stopReason;
        if (reason != null) {
            return new Outcome(RecordingState.TRUNCATED, last, "stopped following: " + reason + " — showing the "
                    + count(size()) + " read before", true);
        }
        return new Outcome(RecordingState.STILL_RECORDING, last,
                "stopped following " + path.getFileName() + " at " + count(size()) + " (it may still be recording)", false);
    }

    private Outcome failed(String message) {
        return new Outcome(RecordingState.TRUNCATED, snapshot(), message, true);
    }

    private static String count(int n) {
        return String.format(Locale.ROOT, "%,d record%s", n, n == 1 ? "" : "s");
    }

    private static Object fileKeyOf(Path file) throws RecordingOpener.OpenException {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
            // Where the platform has no file key, the creation time tells a new file from the old one.
            return Objects.requireNonNullElse(a.fileKey(), a.creationTime());
        } catch (NoSuchFileException e) {
            throw new RecordingOpener.OpenException(file + ": no such file");
        } catch (IOException e) {
            throw new RecordingOpener.OpenException(file + ": I/O error: " + e.getMessage());
        }
    }
}
