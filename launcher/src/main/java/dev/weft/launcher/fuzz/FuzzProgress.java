package dev.weft.launcher.fuzz;

import dev.weft.fuzz.FuzzRun;
import dev.weft.fuzz.ShrinkResult;
import dev.weft.fuzz.SweepResult;
import dev.weft.fuzz.ViolationKey;
import java.io.PrintStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Progress of a fuzz run on stderr: a redrawn one-line bar on a terminal, otherwise a few plain milestone
 * lines. Nothing printed depends on thread timing except the bar's intermediate counts.
 */
final class FuzzProgress implements FuzzRun.Progress {

    private static final long REDRAW_NANOS = 100_000_000L;
    private static final int BAR_WIDTH = 30;

    private final PrintStream err;
    private final boolean terminal;
    private final AtomicInteger shrunk = new AtomicInteger();
    private long queued;
    private int keys;
    private long lastDraw;

    /** True for a shard ({@code --shard}): it sweeps only, so no shrinking is announced. */
    private final boolean sweepOnly;

    FuzzProgress(PrintStream err, boolean terminal) {
        this(err, terminal, false);
    }

    FuzzProgress(PrintStream err, boolean terminal, boolean sweepOnly) {
        this.err = err;
        this.terminal = terminal;
        this.sweepOnly = sweepOnly;
    }

    @Override
    public synchronized void sweepStarted(long queued, int threads) {
        this.queued = queued;
        this.lastDraw = System.nanoTime();
        if (!terminal) {
            err.println("weft fuzz: sweeping " + Long.toUnsignedString(queued) + " seed(s) on " + threads + " thread(s)");
        }
    }

    @Override
    public void seedDone(long tested, long failed) {
        if (!terminal) return;
        long now = System.nanoTime();
        synchronized (this) {
            if (now - lastDraw < REDRAW_NANOS) return;
            lastDraw = now;
            err.print("\r" + bar(tested, queued) + " " + Long.toUnsignedString(tested) + "/" + Long.toUnsignedString(queued)
                    + " seeds, " + Long.toUnsignedString(failed) + " failing");
            err.flush();
        }
    }

    @Override
    public synchronized void sweepDone(SweepResult r) {
        keys = r.findings().size();
        String line = "weft fuzz: swept " + Long.toUnsignedString(r.tested()) + " seed(s), " + Long.toUnsignedString(r.failed())
                + " failing, " + keys + " distinct violation(s)" + (r.budgetHit() ? " (time budget hit)" : "");
        if (terminal) {
            err.print("\r\033[K");
        }
        err.println(line);
        if (keys > 0 && !terminal && !sweepOnly) err.println("weft fuzz: shrinking and writing " + keys + " reproducer(s)");
        err.flush();
    }

    @Override
    public void shrinkDone(ViolationKey key, long seed, ShrinkResult result) {
        int done = shrunk.incrementAndGet();
        if (!terminal) return;
        synchronized (this) {
            err.print("\r\033[K" + bar(done, keys) + " shrunk " + done + "/" + keys);
            if (done == keys) err.print("\r\033[K");
            err.flush();
        }
    }

    private static String bar(long done, long total) {
        int filled = total == 0 ? BAR_WIDTH : (int) Math.min(BAR_WIDTH, (double) done / total * BAR_WIDTH);
        return "[" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "]";
    }
}
