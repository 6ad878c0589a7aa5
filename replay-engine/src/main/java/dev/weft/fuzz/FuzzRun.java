package dev.weft.fuzz;

import dev.weft.io.ByteBudget;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;

/**
 * One {@code weft fuzz} run after its config is settled: sweep (phase 1), then per distinct violation a
 * shrink (phase 2) and a reproducer file. Output text and files are the caller's; this returns the outcome.
 */
public final class FuzzRun {

    /** Milestones and progress; seedDone is called from worker threads. */
    public interface Progress {
        default void sweepStarted(long queued, int threads) {
        }

        default void seedDone(long tested, long failed) {
        }

        default void sweepDone(SweepResult result) {
        }

        default void shrinkDone(ViolationKey key, long seed, ShrinkResult result) {
        }

        Progress NONE = new Progress() {
        };
    }

    /** Writes a reproducer log (fuzz.md §4 {@code record}). */
    public interface Recorder {
        void record(Path path, long seed, String net, List<Op> ops, List<String> invariants, String label) throws IOException;
    }

    private static final int MAX_THREADS = 256;

    private FuzzRun() {
    }

    /** Creates the output directory (with parents); the exception text follows {@code weft fuzz: }. */
    public static void prepareOutDir(Path baseDir, String outDir) throws FuzzConfigException {
        try {
            Files.createDirectories(baseDir.resolve(outDir));
        } catch (IOException e) {
            throw new FuzzConfigException("cannot create " + outDir + ": " + OsErrorText.of(e));
        }
    }

    /** Thread count for a configured job count: max(jobs, 1), capped to keep absurd values harmless. */
    public static int threads(long jobs) {
        if (jobs == 0) return 1;
        return Long.compareUnsigned(jobs, MAX_THREADS) > 0 ? MAX_THREADS : (int) jobs;
    }

    public static FuzzOutcome run(FuzzConfig config, Path baseDir, Progress progress, Recorder recorder) {
        return run(config, threads(config.jobs()), baseDir, progress, recorder);
    }

    /**
     * Like {@link #run(FuzzConfig, Path, Progress, Recorder)}, with {@code phaseTwoThreads} jobs for shrinking and
     * reproducers (a phase-2 job holds payloads a sweep job does not: {@link MemoryBudget}).
     */
    public static FuzzOutcome run(FuzzConfig config, int phaseTwoThreads, Path baseDir, Progress progress,
                                  Recorder recorder) {
        List<Op> ops = WorkloadGenerator.generate(config.workload());
        long t0 = System.nanoTime();
        SweepResult sweep = sweep(config, ops, 0, 1, progress);
        return finish(config, phaseTwoThreads, ops, sweep, System.nanoTime() - t0, baseDir, progress, recorder);
    }

    /** Phase 1 alone, over shard {@code shardIndex} of {@code shardCount} of the queue ({@link SweepShard}). */
    public static SweepShard sweepShard(FuzzConfig config, long shardIndex, long shardCount, Progress progress) {
        List<Op> ops = WorkloadGenerator.generate(config.workload());
        long t0 = System.nanoTime();
        SweepResult sweep = sweep(config, ops, shardIndex, shardCount, progress);
        return new SweepShard(config, shardIndex, shardCount, sweep, System.nanoTime() - t0);
    }

    /**
     * Phase 2 over merged shards: the same shrinks and reproducers a single run makes from the same sweep result.
     * {@code tookNanos} (the report's informative duration) is the shards' sweep times added up.
     */
    public static FuzzOutcome finishMerged(FuzzConfig config, int phaseTwoThreads, SweepResult merged, long tookNanos,
                                           Path baseDir, Progress progress, Recorder recorder) {
        progress.sweepDone(merged);
        return finish(config, phaseTwoThreads, WorkloadGenerator.generate(config.workload()), merged, tookNanos,
                baseDir, progress, recorder);
    }

    private static SweepResult sweep(FuzzConfig config, List<Op> ops, long shardIndex, long shardCount,
                                     Progress progress) {
        NetSpec net = net(config);
        SeedQueue queue = new SeedQueue(config.regressionSeeds(), config.seedStart(), config.seedCount());
        int threads = threads(config.jobs());
        progress.sweepStarted(Sweep.shardSize(queue.size(), shardIndex, shardCount), threads);
        SweepResult sweep = new Sweep(net, ops, config.invariants()).run(queue, shardIndex, shardCount, threads,
                budgetNanos(config.timeBudgetSecs()), progress::seedDone);
        progress.sweepDone(sweep);
        return sweep;
    }

    private static NetSpec net(FuzzConfig config) {
        try {
            return NetSpec.parse(config.net());
        } catch (NetSpecException e) {
            throw new IllegalArgumentException("config was not validated: " + e.getMessage(), e);
        }
    }

    private static FuzzOutcome finish(FuzzConfig config, int threads, List<Op> ops, SweepResult sweep, long took,
                                      Path baseDir, Progress progress, Recorder recorder) {
        NetSpec net = net(config);
        List<FuzzOutcome.Found> found = new ArrayList<>();
        if (!sweep.findings().isEmpty()) {
            ForkJoinPool pool = new ForkJoinPool(threads);
            try {
                List<ForkJoinTask<FuzzOutcome.Found>> tasks = new ArrayList<>();
                for (SweepResult.Finding f : sweep.findings()) {
                    tasks.add(ForkJoinTask.adapt(() -> phaseTwo(config, baseDir, net, ops, f, threads > 1, progress, recorder)));
                }
                pool.invoke(ForkJoinTask.adapt(() -> ForkJoinTask.invokeAll(tasks)));
                for (ForkJoinTask<FuzzOutcome.Found> t : tasks) found.add(t.join());
            } finally {
                pool.shutdown();
            }
        }
        return new FuzzOutcome(config, sweep, found, took);
    }

    private static FuzzOutcome.Found phaseTwo(FuzzConfig config, Path baseDir, NetSpec net, List<Op> ops,
                                              SweepResult.Finding finding, boolean parallel, Progress progress,
                                              Recorder recorder) {
        long seed = finding.smallestSeed();
        ShrinkResult shrunk = config.shrink()
                ? new Shrinker(seed, net, config.invariants(), finding.key(), parallel).shrink(ops)
                : ShrinkResult.unshrunk(ops);
        progress.shrinkDone(finding.key(), seed, shrunk);
        Path shown = Path.of(config.outDir()).resolve(ReproducerName.fileName(seed, finding.key()));
        try {
            recorder.record(baseDir.resolve(shown), seed, config.net(), shrunk.ops(), config.invariants(),
                    ReproducerName.label(finding.key(), seed, shrunk));
            return new FuzzOutcome.Found(finding, shrunk, shown.toString(), null);
        } catch (ByteBudget.Exceeded e) {
            return new FuzzOutcome.Found(finding, shrunk, null, "not written " + shown + ": the reproducers would pass "
                    + e.limit() + " bytes (--max-output)");
        } catch (IOException e) {
            // The path is reported only if the file was written (fuzz.md §7); the reason goes to stderr.
            return new FuzzOutcome.Found(finding, shrunk, null, "could not write " + shown + ": " + OsErrorText.of(e));
        }
    }

    private static long budgetNanos(long secs) {
        if (secs == 0) return 0;
        return Long.compareUnsigned(secs, Long.MAX_VALUE / 1_000_000_000L) > 0 ? Long.MAX_VALUE : secs * 1_000_000_000L;
    }
}
