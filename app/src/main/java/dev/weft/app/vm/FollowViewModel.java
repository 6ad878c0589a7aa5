package dev.weft.app.vm;

import dev.weft.app.source.FollowedRecording;
import dev.weft.app.source.RecordingOpener;
import dev.weft.app.source.RecordingSource;
import dev.weft.log.RecordingState;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A recording followed while it is written, as the window shows it: the document grows as records arrive, a
 * "following…" line says how far it is, and the cursor either stays pinned to the latest op (like {@code tail -f})
 * or stays where the user put it. Moving the cursor off the last op unpins it; going to the last op (End) pins it
 * again.
 *
 * <p>Threads: the file is read by the {@link FollowedRecording}'s own thread; a publisher thread takes a snapshot at
 * most every {@code publishMillis}, and only when the UI thread has shown the one before, so a fast writer never
 * queues more than one update on the UI thread and the UI thread never touches the file.
 */
public final class FollowViewModel {

    /** How often the follower looks for growth, and how often at most the window shows it. */
    static final long POLL_MILLIS = 50;
    static final long PUBLISH_MILLIS = 250;
    private static final long MAX_BACKOFF_NANOS = 2_000_000_000L;

    private final WorkbenchViewModel workbench;
    private final Path file;
    private final TaskRunner runner;
    private final long pollMillis;
    private final long publishMillis;
    private final BooleanProperty following = new SimpleBooleanProperty(this, "following", false);
    private final BooleanProperty pinned = new SimpleBooleanProperty(this, "pinned", true);
    private final IntegerProperty records = new SimpleIntegerProperty(this, "records", 0);
    private final StringProperty status = new SimpleStringProperty(this, "status", "");
    private final ObjectProperty<RecordingState> state = new SimpleObjectProperty<>(this, "state", RecordingState.STILL_RECORDING);
    private final AtomicBoolean uiPending = new AtomicBoolean();
    private FollowedRecording recording;
    private ScheduledExecutorService publisher;
    /** Publisher thread only: the size of the last snapshot handed to the UI (-1: none yet). */
    private int published = -1;
    /** When the UI thread finished showing the last update, and how long from handing it over that took (ns). */
    private volatile long shownAt;
    private volatile long showTook;
    /** UI thread only. */
    private DocumentViewModel shown;
    private boolean finished;

    /** Follows {@code file} for {@code workbench}: polls every {@code pollMillis}, updates at most every {@code publishMillis}. */
    FollowViewModel(WorkbenchViewModel workbench, Path file, long pollMillis, long publishMillis) {
        this.workbench = workbench;
        this.file = file;
        this.runner = workbench.runner();
        this.pollMillis = Math.max(1, pollMillis);
        this.publishMillis = Math.max(1, publishMillis);
        pinned.addListener((o, was, now) -> {
            if (now && shown != null && !finished) shown.end();   // pinning again jumps to the latest op
        });
    }

    public Path file() { return file; }
    /** True until following stops (end record, Stop, truncated or replaced file). */
    public BooleanProperty followingProperty() { return following; }
    /** Whether each update moves the cursor to the latest op. */
    public BooleanProperty pinnedProperty() { return pinned; }
    public IntegerProperty recordsProperty() { return records; }
    /** "following x.weftlog — 1,234 records", then how it stopped. */
    public StringProperty statusProperty() { return status; }
    public ObjectProperty<RecordingState> stateProperty() { return state; }
    /** The document showing the recording now (null before its header has been written). */
    public DocumentViewModel document() { return shown; }

    void start() {
        try {
            recording = FollowedRecording.start(file, pollMillis, () -> runner.ui(this::finish));
        } catch (RecordingOpener.OpenException e) {
            finished = true;
            state.set(RecordingState.TRUNCATED);
            status.set(e.getMessage());
            workbench.errorProperty().set(e.getMessage());
            return;
        }
        following.set(true);
        status.set("following " + file.getFileName() + " — waiting for its header");
        publisher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "workbench-follow-publisher");
            t.setDaemon(true);
            return t;
        });
        publisher.scheduleWithFixedDelay(this::publish, 0, publishMillis, TimeUnit.MILLISECONDS);
    }

    /** Stops following; what was read stays shown. */
    public void stop() {
        if (recording != null) recording.stop();
    }

    /** Publisher thread: hands the UI a snapshot when records arrived and the last one has been shown. */
    private void publish() {
        try {
            recording.checkFile();
            if (recording.outcome() != null || recording.size() == published) return;
            // The UI thread spends at most about a fifth of its time on updates, however fast the writer is (but
            // one slow update, say while the window first comes up, holds the next back by 2 s at most).
            if (System.nanoTime() - shownAt < Math.min(MAX_BACKOFF_NANOS, 4 * showTook)) return;
            if (!uiPending.compareAndSet(false, true)) return;   // the UI is behind: the next tick takes a fresher one
            RecordingSource snapshot = recording.snapshot();
            if (snapshot == null) {
                uiPending.set(false);   // no header yet
                return;
            }
            published = snapshot.size();
            long handedOver = System.nanoTime();
            runner.ui(() -> {
                try {
                    if (!finished) show(snapshot);
                } finally {
                    shownAt = System.nanoTime();
                    showTook = shownAt - handedOver;   // includes waiting behind the UI thread's other work
                    uiPending.set(false);
                }
            });
        } catch (RuntimeException e) {
            // A scheduled task that throws is never run again: stop following visibly instead of going quiet.
            uiPending.set(false);
            recording.stop();
            runner.ui(() -> status.set("stopped following " + file + ": " + e));
        }
    }

    /** UI thread: shows a bigger snapshot in place of the last one. */
    private void show(RecordingSource snapshot) {
        if (!replaceShown(snapshot)) {
            stop();   // its tab was closed: nobody is looking any more
            return;
        }
        records.set(snapshot.size());
        status.set(String.format(Locale.ROOT, "following %s — %,d record%s", file.getFileName(), snapshot.size(),
                snapshot.size() == 1 ? "" : "s"));
    }

    /** UI thread: following stopped; show the final source and say how it ended. */
    private void finish() {
        if (finished) return;
        finished = true;
        publisher.shutdownNow();
        FollowedRecording.Outcome o = recording.outcome();
        following.set(false);
        state.set(o.state());
        status.set(o.message());
        if (o.source() == null) {
            if (o.failed()) workbench.errorProperty().set(o.message());
            return;
        }
        if (!replaceShown(o.source())) {
            o.source().close();
            return;
        }
        records.set(o.source().size());
        shown.messageProperty().set((o.failed() ? "✗ " : "") + o.message());
    }

    /** Puts a document over {@code source} where the last one was; false when that one is no longer shown. */
    private boolean replaceShown(RecordingSource source) {
        DocumentViewModel next = shown == null ? new DocumentViewModel(source, runner) : shown.grownInto(source);
        if (pinned.get() && source.size() > 0) next.cursorProperty().set(source.size() - 1);
        DocumentViewModel old = shown;
        shown = next;
        next.cursorProperty().addListener((o, a, b) -> {
            // The user moved the cursor: at the last op it follows the recording again, elsewhere it stays put.
            if (shown == next && !finished) pinned.set(b.intValue() >= next.size() - 1);
        });
        boolean stillShown = workbench.showGrown(old, next);
        next.forgetGrewFrom();
        if (stillShown) next.runChecks(false);
        return stillShown;
    }
}
