package dev.weft.launcher.run;

import dev.weft.broker.record.LogRecorder;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Says what a Ctrl-C (or SIGTERM) before the run's own interrupt handling leaves behind: from the start of
 * {@code weft run} until the run has started its nodes' watch, a shutdown hook of its own reports either that no
 * recording was written or that the log holds the header and so many records, a valid prefix. From
 * {@link #handOver()} on the run reports itself ("recorded to LOG"). The log itself is safe either way: it is
 * renamed into place only with its header on disk (LogRecorder).
 */
final class EarlyInterrupt {
    private final Path record;
    private final PrintStream err;
    private final Thread hook;
    private LogRecorder recorder;
    private boolean handedOver;
    /** The log is being created: an interrupt waits for it, so what it says matches what is on disk. */
    private boolean creating;
    private boolean interrupted;

    private EarlyInterrupt(Path record, PrintStream err) {
        this.record = record;
        this.err = err;
        this.hook = new Thread(this::interrupted, "weft-run-early-interrupt");
    }

    /** Starts watching; {@code record} is the {@code --record} file or null. */
    static EarlyInterrupt install(Path record, PrintStream err) {
        EarlyInterrupt e = new EarlyInterrupt(record, err);
        try {
            Runtime.getRuntime().addShutdownHook(e.hook);
            markReporting();
        } catch (IllegalStateException shuttingDown) {
            // already shutting down: there is no run to report on
        }
        return e;
    }

    /**
     * Tells the {@code weft} script that an interrupt from now on is reported here: it creates the file named by
     * {@code weft.interrupt.mark}. The script reports an interrupt that ends the JVM before this (while it starts).
     */
    private static void markReporting() {
        String mark = System.getProperty("weft.interrupt.mark");
        if (mark != null && !mark.isEmpty()) {
            try {
                java.nio.file.Files.newOutputStream(Path.of(mark)).close();
            } catch (java.io.IOException | RuntimeException e) {
                // then the script may add its own line after ours
            }
        }
    }

    /** The log is about to be created; false if an interrupt came first (then create nothing). */
    synchronized boolean beginRecording() {
        if (interrupted) {
            return false;
        }
        creating = true;
        return true;
    }

    /** The log's creation ended: {@code r} the recorder (its header on disk under its name), or null if it failed. */
    synchronized void recorder(LogRecorder r) {
        recorder = r;
        creating = false;
        notifyAll();
    }

    /** The run's own interrupt handling has taken over (or the run ended before starting): stop watching. */
    void handOver() {
        synchronized (this) {
            if (handedOver) {
                return;
            }
            handedOver = true;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs or has run
        }
    }

    /** The hook: one line saying what is on disk. */
    synchronized void interrupted() {
        if (handedOver) {
            return;
        }
        handedOver = true;
        interrupted = true;
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (creating && System.nanoTime() < deadline) {
            try {
                wait(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (record == null) {
            err.println("weft run: interrupted before any node started");
        } else if (recorder == null) {
            err.println("weft run: interrupted before the run started; no recording written (" + record
                    + " is as it was)");
        } else {
            recorder.close();
            err.println("weft run: interrupted before any node started; " + record + " holds the header and "
                    + recorder.count() + " record(s), a valid prefix (verify: weft replay " + record + ")");
        }
        err.flush();
    }
}
