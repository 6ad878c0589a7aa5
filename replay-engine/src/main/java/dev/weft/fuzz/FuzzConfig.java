package dev.weft.fuzz;

import java.util.ArrayList;
import java.util.List;

/**
 * A validated fuzz configuration (fuzz.md §2) after command-line overrides. u64 values live in longs and
 * are unsigned; {@code invariants} keeps the configured names (aliases, order and duplicates as written).
 */
public record FuzzConfig(String net, long seedStart, long seedCount, long jobs, long timeBudgetSecs,
                         List<String> invariants, WorkloadSpec workload, String outDir, boolean shrink,
                         List<Long> regressionSeeds) {

    public static final String DEFAULT_OUT_DIR = "weft-fuzz-out";

    public FuzzConfig {
        invariants = List.copyOf(invariants);
        regressionSeeds = List.copyOf(regressionSeeds);
    }

    /** Number of available CPUs (the {@code jobs} default). */
    public static long defaultJobs() {
        int n = Runtime.getRuntime().availableProcessors();
        return n > 0 ? n : 4;
    }

    public FuzzConfig withSeeds(long start, long count) {
        return new FuzzConfig(net, start, count, jobs, timeBudgetSecs, invariants, workload, outDir, shrink, regressionSeeds);
    }

    public FuzzConfig withJobs(long j) {
        return new FuzzConfig(net, seedStart, seedCount, j, timeBudgetSecs, invariants, workload, outDir, shrink, regressionSeeds);
    }

    public FuzzConfig withTimeBudget(long secs) {
        return new FuzzConfig(net, seedStart, seedCount, jobs, secs, invariants, workload, outDir, shrink, regressionSeeds);
    }

    public FuzzConfig withOutDir(String dir) {
        return new FuzzConfig(net, seedStart, seedCount, jobs, timeBudgetSecs, invariants, workload, dir, shrink, regressionSeeds);
    }

    public FuzzConfig withShrink(boolean on) {
        return new FuzzConfig(net, seedStart, seedCount, jobs, timeBudgetSecs, invariants, workload, outDir, on, regressionSeeds);
    }

    /** Appends seeds after the configured regression seeds (duplicates kept). */
    public FuzzConfig withMoreRegressionSeeds(List<Long> more) {
        List<Long> all = new ArrayList<>(regressionSeeds);
        all.addAll(more);
        return new FuzzConfig(net, seedStart, seedCount, jobs, timeBudgetSecs, invariants, workload, outDir, shrink, all);
    }
}
