package dev.weft.app.fuzz;

import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigException;
import dev.weft.fuzz.FuzzConfigLoader;
import dev.weft.fuzz.FuzzOutcome;
import dev.weft.fuzz.FuzzReport;
import dev.weft.fuzz.FuzzRun;
import dev.weft.fuzz.MemoryBudget;
import dev.weft.fuzz.Reproducer;
import dev.weft.fuzz.ShrinkResult;
import dev.weft.fuzz.SweepResult;
import dev.weft.fuzz.ViolationKey;
import dev.weft.io.AtomicFile;
import dev.weft.io.ByteBudget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One {@code weft fuzz} run from the fuzz panel, in this JVM through the engine's own {@link FuzzRun} — the same
 * sweep, shrink, reproducer files and report.txt as the command — with progress callbacks and a cancel.
 *
 * <p>Why in this JVM and not a child process like the run panel: a fuzz run is pure Java over a simulated network
 * (no shim, no target process that could hang), and the engine's progress callbacks are what a determinate bar
 * needs. Cancel is thrown from the sweep's per-seed callback, which stops every sweep worker at its next seed; a
 * shrink already running finishes its bounded search in the background but writes nothing.
 */
public final class FuzzSession {

    /** Progress and the end; called from the session's threads. */
    public interface Listener {
        void sweeping(long tested, long queued, long failing);

        void swept(long tested, long failing, int distinct);

        void shrunk(int done, int of);

        /** The outcome (null if cancelled or failed; then {@code message} says what happened). */
        void finished(Result result, String message);
    }

    /** One distinct violation as the panel lists it. */
    public record Finding(String violation, String firstMessage, List<Long> seeds, int opsBefore, int opsAfter,
            int executions, boolean budgetExhausted, Path reproducer, String reproError) {
        public long firstSeed() { return seeds.get(0); }
    }

    /** What a finished run found, in the engine's report order (violations sorted by their display). */
    public record Result(long tested, long failing, boolean budgetHit, List<Finding> findings, List<Long> failingSeeds,
            long seedStart, long seedCount, Path outDir) {
    }

    private static final class Cancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super("cancelled", null, false, false);
        }
    }

    private final AtomicBoolean cancel = new AtomicBoolean();
    private volatile Thread thread;

    /** Parses config text as weft fuzz would read the file; the message names the line and column. */
    public static FuzzConfig parse(String text) throws FuzzConfigException {
        return FuzzConfigLoader.parse(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Starts the run on a thread of its own. {@code outDir} is absolute (reproducers and report.txt go there);
     * {@code seedStart}/{@code seedCount}/{@code jobs} override the config when not null.
     */
    public void start(FuzzConfig config, Path outDir, Long seedStart, Long seedCount, Long jobs, Listener listener) {
        FuzzConfig c = config.withOutDir(outDir.toString());
        if (seedStart != null && seedCount != null) c = c.withSeeds(seedStart, seedCount);
        if (jobs != null) c = c.withJobs(jobs);
        FuzzConfig settled = c;
        Thread t = new Thread(() -> run(settled, outDir, listener), "weft-fuzz-panel");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    public void cancel() {
        cancel.set(true);
    }

    /** Waits for the run's thread (tests). */
    public void join(long millis) throws InterruptedException {
        Thread t = thread;
        if (t != null) t.join(millis);
    }

    private void run(FuzzConfig config, Path outDir, Listener listener) {
        try {
            MemoryBudget.Plan plan = MemoryBudget.plan(config, "the config", Runtime.getRuntime().maxMemory());
            if (plan.reduced()) config = config.withJobs(plan.threads());
            FuzzRun.prepareOutDir(outDir, outDir.toString());
        } catch (FuzzConfigException e) {
            listener.finished(null, e.getMessage());
            return;
        }
        AtomicFile.removeStale(outDir);
        ByteBudget output = new ByteBudget(256L << 20);
        AtomicInteger shrinks = new AtomicInteger();
        int[] distinct = new int[1];
        long[] queued = new long[1];
        FuzzRun.Progress progress = new FuzzRun.Progress() {
            @Override public void sweepStarted(long q, int threads) {
                queued[0] = q;
                listener.sweeping(0, q, 0);
            }

            @Override public void seedDone(long tested, long failed) {
                if (cancel.get()) throw new Cancelled();
                listener.sweeping(tested, queued[0], failed);
            }

            @Override public void sweepDone(SweepResult r) {
                distinct[0] = r.findings().size();
                listener.swept(r.tested(), r.failed(), distinct[0]);
                if (cancel.get()) throw new Cancelled();
            }

            @Override public void shrinkDone(ViolationKey key, long seed, ShrinkResult result) {
                if (cancel.get()) throw new Cancelled();
                listener.shrunk(shrinks.incrementAndGet(), distinct[0]);
            }
        };
        FuzzOutcome outcome;
        try {
            outcome = FuzzRun.run(config, outDir, progress, (path, seed, net, ops, invariants, label) ->
                    Reproducer.record(path, seed, net, ops, invariants, label, output));
        } catch (Cancelled e) {
            listener.finished(null, "cancelled; nothing was written for this run");
            return;
        } catch (RuntimeException e) {
            if (cancel.get() || e.getCause() instanceof Cancelled) {
                listener.finished(null, "cancelled; nothing was written for this run");
            } else {
                listener.finished(null, "fuzz run failed: " + e);
            }
            return;
        }
        try {
            AtomicFile.write(outDir.resolve("report.txt"), FuzzReport.render(outcome).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            listener.finished(result(outcome, outDir), "could not write report.txt: " + e.getMessage());
            return;
        }
        listener.finished(result(outcome, outDir), null);
    }

    static Result result(FuzzOutcome o, Path outDir) {
        List<Finding> findings = new ArrayList<>();
        SortedSet<Long> failing = new TreeSet<>(Long::compareUnsigned);
        for (FuzzOutcome.Found f : o.found()) {
            SweepResult.Finding fi = f.finding();
            failing.addAll(fi.seeds());
            ShrinkResult s = f.shrink();
            // reproPath is the configured out dir (absolute here) resolved with the file name
            Path repro = f.reproPath() == null ? null : Path.of(f.reproPath());
            findings.add(new Finding(fi.key().display(), fi.what(), List.copyOf(fi.seeds()), s.before(), s.after(),
                    s.executions(), s.budgetExhausted(), repro, f.reproError()));
        }
        SweepResult sw = o.sweep();
        return new Result(sw.tested(), sw.failed(), sw.budgetHit(), findings, List.copyOf(failing),
                o.config().seedStart(), o.config().seedCount(), outDir);
    }
}
