package dev.weft.app.run;

import dev.weft.launcher.run.RunInChildJvm;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One live {@code weft run}, started from the run panel through the launcher ({@link RunInChildJvm}: weft run's
 * own entry point in a child JVM with this JVM's class path) — for the reasons {@code weft campaign} runs its runs
 * that way: a run hosts its broker, watchdog and signal handling, and a hung or
 * crashing target must not take the workbench with it. Stop is SIGTERM to that JVM, whose shutdown stops every
 * node and finishes the log with its disconnects and {@code end} record (as Ctrl-C does in a terminal).
 *
 * <p>Everything here runs on its own threads; the listener is called from them and must hand over to the UI
 * thread itself.
 */
public final class RunSession {

    /** Where a run's lines and figures go; called from the session's threads. */
    public interface Listener {
        /** A line of node output ({@code node} &ge; 0) or of weft run itself ({@code node} = -1). */
        void line(long node, boolean stderr, String text);

        /** New figures from the recording (only whole records are counted). */
        void progress(LogTail.Counts counts);

        /** The run is over: weft run's exit status, and the recording if one was written. */
        void finished(int exitStatus, Path recording, boolean stoppedByUser);
    }

    /** {@code [n3] text}: a node's line as weft run copies it. */
    private static final Pattern NODE_LINE = Pattern.compile("^\\[n([0-9]{1,10})\\] (.*)$", Pattern.DOTALL);
    private static final long POLL_MILLIS = 150;

    private final Process process;
    private final Path record;
    private final Listener listener;
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private final OutputPumps pumps = new OutputPumps();
    private final Thread onQuit = new Thread(this::stopIfAlive, "weft-run-panel-quit");

    private RunSession(Process process, Path record, Listener listener) {
        this.process = process;
        this.record = record;
        this.listener = listener;
    }

    /**
     * Starts the run (a process start: call it off the UI thread). {@code baseEnv} is the environment to start from
     * (normally this process's); the request's variables go on top.
     */
    public static RunSession start(RunRequest request, Map<String, String> baseEnv, Listener listener) throws IOException {
        Map<String, String> env = new java.util.HashMap<>(baseEnv);
        env.putAll(request.environment());
        Path record = request.record().isBlank() ? null : Path.of(request.record().strip()).toAbsolutePath();
        if (record != null && record.getParent() != null) java.nio.file.Files.createDirectories(record.getParent());
        RunSession s = new RunSession(RunInChildJvm.start(request.args(), env), record, listener);
        s.begin();
        return s;
    }

    /**
     * Starts {@code weft run ARGS} as it is (the workbench's What if? re-runs a recording's own command line) in
     * {@code directory}, with the environment {@code env}; record is where ARGS record to (for the progress figures).
     */
    public static RunSession start(List<String> args, Path record, Path directory, Map<String, String> env,
            Listener listener) throws IOException {
        RunSession s = new RunSession(RunInChildJvm.start(args, env, directory), record, listener);
        s.begin();
        return s;
    }

    private void begin() {
        // Quitting the workbench stops a run still going (as Stop does, so its log is finished): a child JVM would
        // otherwise outlive the window, its nodes with it.
        Runtime.getRuntime().addShutdownHook(onQuit);
        pump(process.getInputStream(), false);
        pump(process.getErrorStream(), true);
        Thread watcher = new Thread(this::watch, "weft-run-panel-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /** Polls the recording until the process ends, then reports the last figures and the exit. */
    private void watch() {
        LogTail tail = record == null ? null : new LogTail(record);
        try {
            while (!process.waitFor(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                report(tail);
            }
            pumps.drain();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        report(tail);
        try {
            Runtime.getRuntime().removeShutdownHook(onQuit);
        } catch (IllegalStateException e) {
            // the workbench is quitting: the hook is running or has run
        }
        int rc = process.exitValue();
        listener.finished(rc, record != null && java.nio.file.Files.isRegularFile(record) ? record : null,
                stopRequested.get());
    }

    private void report(LogTail tail) {
        if (tail == null) return;
        try {
            listener.progress(tail.poll());
        } catch (IOException e) {
            listener.line(-1, true, "cannot read " + record + ": " + e.getMessage());
        }
    }

    private void pump(InputStream in, boolean stderr) {
        pumps.start(in, "weft-run-panel-" + (stderr ? "err" : "out"), l -> {
            Matcher m = NODE_LINE.matcher(l);
            if (m.matches()) listener.line(Long.parseLong(m.group(1)), stderr, m.group(2));
            else listener.line(-1, stderr, l);
        });
    }

    /**
     * Stops the run as Ctrl-C would: weft run stops every node and finishes the log. If it has not ended after
     * {@code graceSeconds}, the whole tree is killed (the log is then cut short). Blocks: call it off the UI thread.
     */
    public void stop(long graceSeconds) {
        stopRequested.set(true);
        // Through the handle: Process.destroy() would also close our ends of its pipes, losing the lines weft run
        // prints while it stops (the "recorded to" line among them).
        process.toHandle().destroy();
        ProcessTrees.killAfterGrace(process, graceSeconds, () -> process.descendants().forEach(ProcessHandle::destroyForcibly));
    }

    private void stopIfAlive() {
        if (process.isAlive()) stop(5);
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The processes of the run (the weft run JVM and every node under it), for tests that check a stop. */
    public List<ProcessHandle> processTree() {
        return ProcessTrees.of(process);
    }

    /** What an exit status of weft run means, in a few words. */
    public static String meaning(int status, boolean stoppedByUser) {
        return meaning(status, stoppedByUser, true);
    }

    /**
     * As {@link #meaning(int, boolean)}; windowed says whether the run had a window. Only a windowed run is discarded
     * with exit 3: in a plain run, 3 is a node's own exit status (a protocol observer exits 3 for DISCARD).
     */
    public static String meaning(int status, boolean stoppedByUser, boolean windowed) {
        return switch (status) {
            case 0 -> "every node exited 0";
            case 1 -> "the recording could not be written completely";
            case 2 -> "refused (see the weft lines)";
            case 3 -> windowed ? "windowed run discarded" : "a node exited 3 (a case-study observer's DISCARD: its checker could not judge the run)";
            // weft run's deadlock verdict (docs/cli.md); a node's own exit 4 cannot be told from it by the status alone
            case 4 -> "the deadlock verdict: every live node waits (or a node exited 4)";
            case 124 -> "stopped by the watchdog (no network operation)";
            case 127 -> "a node could not be started";
            case 130, 143 -> stoppedByUser ? "stopped; the log was finished" : "interrupted";
            default -> status > 128 ? "a node died of signal " + (status - 128) : "a node exited " + status;
        };
    }

}
