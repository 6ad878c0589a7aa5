package dev.weft.fuzz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Prints fuzz wall times for the corpus configs (demo, ci, campaign3000): a benchmark, not a test.
 * Run: {@code mvn -q -o test-compile -pl replay-engine -am} then
 * {@code java -XX:+UseSerialGC -cp replay-engine/target/classes:replay-engine/target/test-classes:<jackson jars> dev.weft.fuzz.FuzzBenchmark [rounds] [jobs]}
 * (the serial collector as the {@code weft} script uses: G1 costs ~45% more CPU on this allocation-heavy loop).
 * Times are in-process (JVM start-up excluded: add ~0.2-0.5 s for a fresh `weft` process). Reproducers
 * are written to a temporary directory as the command would.
 */
public final class FuzzBenchmark {

    private FuzzBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        long jobs = args.length > 1 ? Long.parseLong(args[1]) : FuzzConfig.defaultJobs();
        Path corpus = Shared.fuzzCorpus();
        Path out = Files.createTempDirectory("weft-fuzz-bench");
        System.out.println("fuzz benchmark, jobs " + jobs + ", " + rounds + " round(s) each, in-process (no JVM start-up), load average "
                + java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        for (String name : List.of("demo.json", "ci.json", "campaign3000.json")) {
            FuzzConfig c = FuzzConfigLoader.load(corpus.resolve(name), name).withJobs(jobs).withOutDir(out.toString());
            List<Long> times = new ArrayList<>();
            List<Long> cpu = new ArrayList<>();
            FuzzOutcome last = null;
            for (int r = 0; r < rounds; r++) {
                long c0 = processCpuNanos();
                long t0 = System.nanoTime();
                last = FuzzRun.run(c, out, FuzzRun.Progress.NONE, Reproducer::record);
                times.add(System.nanoTime() - t0);
                cpu.add(processCpuNanos() - c0);
            }
            Collections.sort(cpu);
            Collections.sort(times);
            long ops = WorkloadGenerator.generate(c.workload()).size();
            double sweepSecs = last.tookNanos() / 1e9;
            System.out.printf("%-18s %5d seeds x %5d ops: wall min %8.1f ms, median %8.1f ms; process CPU min %8.1f ms "
                            + "(last sweep %.1f ms wall, %.1f M ops/s), %d distinct violation(s)%n", name, last.sweep().tested(),
                    ops, times.get(0) / 1e6, times.get(times.size() / 2) / 1e6, cpu.get(0) / 1e6, sweepSecs * 1e3,
                    last.sweep().tested() * ops / sweepSecs / 1e6, last.found().size());
        }
        deleteTree(out);
    }

    /** CPU time of the whole process (all threads): comparable even when other processes compete for the cores. */
    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    private static void deleteTree(Path p) throws IOException {
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(Collections.reverseOrder()).toList()) Files.deleteIfExists(q);
        }
    }
}
