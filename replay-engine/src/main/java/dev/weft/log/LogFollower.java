package dev.weft.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A non-blocking view of a recording while it is written, for a UI or any poller: a helper thread follows the file
 * ({@link LogReader#follow}) and every verified record it reads is handed out by {@link #drain()}. Records only
 * ever arrive whole and verified (a half-written last line is waited on, never reported as corrupt); the
 * {@link #state()} says whether the recording is still being written, was truncated, or has ended.
 */
public final class LogFollower implements Closeable {

    private final Thread thread;
    private final Object lock = new Object();
    private List<LogRecord> arrived = new ArrayList<>();
    private volatile LogReader reader;
    private volatile LogHeader header;
    private volatile RecordingState state = RecordingState.STILL_RECORDING;
    private volatile WeftLogException failure;
    private volatile boolean done;
    private volatile boolean writerGone;

    private LogFollower(Path path, long pollMillis, long idleLimitMillis) {
        thread = new Thread(() -> run(path, pollMillis, idleLimitMillis), "weft-log-follower");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts following {@code path}; see {@link LogReader#follow} for the poll interval and idle limit. */
    public static LogFollower start(Path path, long pollMillis, long idleLimitMillis) {
        return new LogFollower(path, pollMillis, idleLimitMillis);
    }

    private void run(Path path, long pollMillis, long idleLimitMillis) {
        try (LogReader r = LogReader.follow(path, pollMillis, idleLimitMillis)) {
            reader = r;
            header = r.header();
            if (writerGone) {
                r.writerGone();
            }
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                synchronized (lock) {
                    arrived.add(rec);
                }
                state = r.recordingState();
            }
            state = r.recordingState();
        } catch (WeftLogException e) {
            LogReader r = reader;
            failure = e;
            state = r != null && r.recordingState() == RecordingState.TRUNCATED ? RecordingState.TRUNCATED : state;
        } catch (IOException e) {
            failure = WeftLogException.io(RecordStream.describe(e), 0, e);
        } finally {
            done = true;
        }
    }

    /** The records verified since the last call (in op order), possibly none. */
    public List<LogRecord> drain() {
        synchronized (lock) {
            if (arrived.isEmpty()) {
                return List.of();
            }
            List<LogRecord> out = arrived;
            arrived = new ArrayList<>();
            return out;
        }
    }

    /** The header, once its line has been written and read; null before. */
    public LogHeader header() {
        return header;
    }

    public RecordingState state() {
        return state;
    }

    /** The read error that stopped following (a corrupt record, a truncated file), or null. */
    public WeftLogException failure() {
        return failure;
    }

    /** Whether following has stopped (ended, truncated, or failed); {@link #drain()} may still hold records. */
    public boolean isDone() {
        return done;
    }

    /** The writer will append nothing more: read what it wrote, then stop. */
    public void writerGone() {
        writerGone = true;
        LogReader r = reader;
        if (r != null) {
            r.writerGone();
        }
    }

    /** Waits up to {@code millis} for following to stop; true if it has. */
    public boolean awaitDone(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return done;
    }

    @Override
    public void close() {
        thread.interrupt();
    }
}
