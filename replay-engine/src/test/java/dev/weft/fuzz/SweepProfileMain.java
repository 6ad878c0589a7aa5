package dev.weft.fuzz;

import dev.weft.net.NetSpec;
import java.util.List;

/** Runs the campaign3000 sweep on part of its seeds for profiling the executor (prints the sweep time). */
public final class SweepProfileMain {

    private SweepProfileMain() {
    }

    public static void main(String[] args) throws Exception {
        long seeds = args.length > 0 ? Long.parseLong(args[0]) : 300;
        int jobs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        FuzzConfig c = FuzzConfigLoader.load(Shared.fuzzCorpus().resolve("campaign3000.json"), "campaign3000.json");
        List<Op> ops = WorkloadGenerator.generate(c.workload());
        Sweep sweep = new Sweep(NetSpec.parse(c.net()), ops, c.invariants());
        for (int round = 0; round < 3; round++) {
            java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            SweepResult r = sweep.run(new SeedQueue(List.of(), 0, seeds), jobs, 0, null);
            long t = System.nanoTime() - t0;
            long cpu = mx.getCurrentThreadCpuTime() - c0; // meaningful with jobs 1 (the sweep then runs on this thread)
            System.out.printf("round %d: %d seeds in %.1f ms wall, %.1f ms CPU of this thread (%.2f M ops/s per CPU), %d keys%n",
                    round, r.tested(), t / 1e6, cpu / 1e6, r.tested() * (double) ops.size() / (cpu / 1e3), r.findings().size());
        }
    }
}
