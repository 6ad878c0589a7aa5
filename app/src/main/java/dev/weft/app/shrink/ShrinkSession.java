package dev.weft.app.shrink;

import dev.weft.app.run.ProcessTrees;
import dev.weft.app.run.OutputPumps;
import dev.weft.launcher.shrink.ShrinkInChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code weft shrink} in a child process: weft's own entry point in a child JVM with this JVM's class path, or
 * the command named by the system property {@value #COMMAND_PROPERTY} (a {@code weft} executable; tests name a fake).
 * Its stderr progress lines ({@code shrink: run R, D deviation(s) of N}) are parsed as they come; Cancel ends the
 * whole process tree. Everything here runs on the session's own threads; the listener hands over to the UI itself.
 */
public final class ShrinkSession {

    public static final String COMMAND_PROPERTY = "weft.workbench.weft";

    /** Where a shrink's news goes; called from the session's threads. */
    public interface Listener {
        /** A line weft shrink printed. */
        void line(boolean stderr, String text);

        /** A progress line: run number, deviations left, deviations of the plan at the start. */
        void progress(long run, long deviations, long of);

        /** The shrink is over: its exit status, the minimal recording if one was written, and whether Cancel ended it. */
        void finished(int exitStatus, Path minimalLog, boolean cancelled);
    }

    /** {@code shrink: run 7, 3 deviation(s) of 41}. */
    static final Pattern PROGRESS = Pattern.compile("^shrink: run ([0-9]{1,18}), ([0-9]{1,18}) deviation\\(s\\) of ([0-9]{1,18})\\b.*");

    private final Process process;
    private final Path minimalLog;
    private final Listener listener;
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final OutputPumps pumps = new OutputPumps();

    private ShrinkSession(Process process, Path minimalLog, Listener listener) {
        this.process = process;
        this.minimalLog = minimalLog;
        this.listener = listener;
    }

    /** Starts the shrink (a process start: call it off the UI thread). */
    public static ShrinkSession start(ShrinkRequest request, Listener listener) throws IOException {
        Process p = ShrinkInChildJvm.start(request.args(), System.getProperty(COMMAND_PROPERTY, ""));
        ShrinkSession s = new ShrinkSession(p, request.minimalLog().toAbsolutePath(), listener);
        s.begin();
        return s;
    }

    private void begin() {
        pump(process.getInputStream(), false);
        pump(process.getErrorStream(), true);
        Thread watcher = new Thread(this::watch, "weft-shrink-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        int rc;
        try {
            rc = process.waitFor();
            pumps.drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        boolean stopped = cancelled.get();
        listener.finished(rc, !stopped && rc == 0 && Files.isRegularFile(minimalLog) ? minimalLog : null, stopped);
    }

    private void pump(InputStream in, boolean stderr) {
        pumps.start(in, "weft-shrink-" + (stderr ? "err" : "out"), l -> {
            listener.line(stderr, l);
            Matcher m = PROGRESS.matcher(l);
            if (stderr && m.matches()) {
                listener.progress(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
            }
        });
    }

    /** Cancels: SIGTERM to the whole tree, then a kill after a grace period. Blocks: call it off the UI thread. */
    public void cancel(long graceSeconds) {
        cancelled.set(true);
        List<ProcessHandle> tree = new ArrayList<>();
        process.descendants().forEach(tree::add);
        process.toHandle().destroy();
        tree.forEach(ProcessHandle::destroy);
        ProcessTrees.killAfterGrace(process, graceSeconds, () -> tree.forEach(ProcessHandle::destroyForcibly));
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The process and everything under it (for tests that check a cancel leaves nothing behind). */
    public List<ProcessHandle> processTree() {
        return ProcessTrees.of(process);
    }
}
