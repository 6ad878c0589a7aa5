package dev.weft.app.shrink;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What Tools ▸ Shrink… shows and does, without the toolkit: the form's fields, each field's problem, the command
 * line they make, and one {@code weft shrink} at a time ({@link ShrinkSession}) with its state, progress and lines.
 * The panel binds to this; tests drive it directly.
 *
 * <p>Everything here is changed on the UI thread: the session's threads hand their news over through {@code ui}
 * (Platform::runLater in the workbench), and the process is started and stopped on threads of its own, so the UI
 * thread never waits for a process.
 */
public final class ShrinkViewModel {

    /** Starts a shrink (a process start: called off the UI thread); tests give a fake. */
    public interface Starter {
        ShrinkSession start(ShrinkRequest request, ShrinkSession.Listener listener) throws IOException;
    }

    public final StringProperty config = new SimpleStringProperty(this, "config", "");
    public final StringProperty seed = new SimpleStringProperty(this, "seed", "");
    public final StringProperty cells = new SimpleStringProperty(this, "cells", "");
    public final StringProperty jobs = new SimpleStringProperty(this, "jobs", "");
    public final StringProperty out = new SimpleStringProperty(this, "out", "");

    private final ReadOnlyObjectWrapper<Map<ShrinkRequest.Field, String>> problems = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyStringWrapper commandLine = new ReadOnlyStringWrapper("");
    private final ReadOnlyStringWrapper state = new ReadOnlyStringWrapper("not started");
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(0);
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyBooleanWrapper cancelling = new ReadOnlyBooleanWrapper(false);
    /** The lines weft shrink printed, oldest first; cleared when a shrink starts. */
    private final ObservableList<String> lines = FXCollections.observableArrayList();
    private final ObservableList<String> linesSeen = FXCollections.unmodifiableObservableList(lines);
    private final BooleanBinding canStart;

    private final Consumer<Runnable> ui;
    private final Consumer<Path> openRecording;
    private final Starter starter;
    private ShrinkSession session;
    private boolean cancelRequested;

    public ShrinkViewModel(Consumer<Runnable> ui, Consumer<Path> openRecording) {
        this(ui, openRecording, ShrinkSession::start);
    }

    public ShrinkViewModel(Consumer<Runnable> ui, Consumer<Path> openRecording, Starter starter) {
        this.ui = ui;
        this.openRecording = openRecording;
        this.starter = starter;
        for (StringProperty f : new StringProperty[] {config, seed, cells, jobs, out}) f.addListener(o -> check());
        canStart = Bindings.createBooleanBinding(() -> problems.get().isEmpty() && !running.get(), problems, running);
        check();
    }

    /** The form as a request. */
    public ShrinkRequest request() {
        return new ShrinkRequest(config.get(), seed.get(), cells.get(), jobs.get(), out.get());
    }

    /** Fills the form (the tests, and a campaign's failing run). */
    public void fill(ShrinkRequest r) {
        config.set(r.config());
        seed.set(r.seed());
        cells.set(r.cells());
        jobs.set(r.jobs());
        out.set(r.out());
    }

    private void check() {
        ShrinkRequest r = request();
        Map<ShrinkRequest.Field, String> p = r.problems();
        problems.set(Map.copyOf(p));
        commandLine.set(p.isEmpty() ? r.commandLine() : "");
    }

    /** Starts weft shrink for the form (nothing when the form has problems or a shrink runs). */
    public void start() {
        ShrinkRequest r = request();
        if (!r.problems().isEmpty() || running.get()) return;
        lines.clear();
        running.set(true);
        cancelRequested = false;
        cancelling.set(false);
        progress.set(-1);
        state.set("starting: " + r.commandLine());
        Thread t = new Thread(() -> {
            try {
                ShrinkSession s = starter.start(r, listener());
                ui.accept(() -> {
                    if (!running.get()) return;   // it has already ended
                    session = s;
                    if (cancelRequested) cancel();
                });
            } catch (IOException e) {
                ui.accept(() -> ended("✗ cannot start weft shrink: " + e.getMessage(), null));
            }
        }, "weft-shrink-start");
        t.setDaemon(true);
        t.start();
    }

    private ShrinkSession.Listener listener() {
        return new ShrinkSession.Listener() {
            @Override
            public void line(boolean stderr, String text) {
                ui.accept(() -> lines.add(text));
            }

            @Override
            public void progress(long run, long deviations, long of) {
                ui.accept(() -> {
                    // the deviations taken away so far, of those the plan started with
                    progress.set(of == 0 ? 1 : (double) (of - deviations) / of);
                    state.set("run " + run + ": " + deviations + " deviation(s) of " + of + " left");
                });
            }

            @Override
            public void finished(int exitStatus, Path minimalLog, boolean cancelled) {
                ui.accept(() -> {
                    if (cancelled) ended("cancelled", null);
                    else if (minimalLog == null) ended("✗ weft shrink exited " + exitStatus + " (see its lines)", null);
                    else ended("done: " + minimalLog + " (exit " + exitStatus + ")", minimalLog);
                });
            }
        };
    }

    private void ended(String text, Path minimalLog) {
        session = null;
        running.set(false);
        cancelling.set(false);
        state.set(text);
        if (progress.get() < 0) progress.set(0);
        if (minimalLog != null) progress.set(1);
        if (minimalLog != null) openRecording.accept(minimalLog);
    }

    /** Cancels the running shrink (stopping waits for the process: on a thread of its own). */
    public void cancel() {
        if (!running.get()) return;
        ShrinkSession s = session;
        cancelRequested = true;
        cancelling.set(true);
        state.set("cancelling…");
        if (s == null) return;   // not started yet: cancelled as soon as it is
        Thread stopper = new Thread(() -> s.cancel(5), "weft-shrink-cancel");
        stopper.setDaemon(true);
        stopper.start();
    }

    public ReadOnlyObjectProperty<Map<ShrinkRequest.Field, String>> problems() { return problems.getReadOnlyProperty(); }
    public ReadOnlyStringProperty commandLine() { return commandLine.getReadOnlyProperty(); }
    public ReadOnlyStringProperty state() { return state.getReadOnlyProperty(); }
    /** From 0 to 1; -1 while the first run has not reported (indeterminate). */
    public ReadOnlyDoubleProperty progress() { return progress.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty running() { return running.getReadOnlyProperty(); }
    /** Cancel was asked and the shrink has not ended yet. */
    public ReadOnlyBooleanProperty cancelling() { return cancelling.getReadOnlyProperty(); }
    public BooleanBinding canStart() { return canStart; }
    public ObservableList<String> lines() { return linesSeen; }
    /** The session running now, or null (tests). */
    public ShrinkSession session() { return session; }
}
