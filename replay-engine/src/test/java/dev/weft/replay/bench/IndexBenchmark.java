package dev.weft.replay.bench;

import dev.weft.log.Fnv1a;
import dev.weft.replay.LogIndex;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The index build ("all ops reachable" in the workbench, minus the workbench's own per-record work) and the plain
 * replay, timed in this JVM from its first run on: the first figure is what a freshly started workbench or
 * {@code weft replay} pays (JIT warm-up included), the later ones the warm cost. A main, not a test; prints figures.
 * Wall and process CPU time are printed per run: on the shared 2-core machine the CPU figure is the steadier one.
 * {@code --replay}: time {@code Replayer.replay} instead; {@code --read}: only read and verify (the parser's share).
 * Usage: IndexBenchmark [--runs N] [--replay | --read] LOG...
 */
public final class IndexBenchmark {

    private IndexBenchmark() {
    }

    /** CPU time of the whole process (all threads: helpers, JIT, GC): steadier than wall time on a busy machine. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    public static void main(String[] args) throws Exception {
        int runs = 3;
        boolean replay = false;
        boolean read = false;
        int i = 0;
        for (; i < args.length && args[i].startsWith("--"); i++) {
            if (args[i].equals("--runs")) {
                runs = Integer.parseInt(args[++i]);
            } else if (args[i].equals("--replay")) {
                replay = true;
            } else if (args[i].equals("--read")) {
                read = true;
            }
        }
        Path cache = Files.createTempDirectory("weft-index-bench");
        for (; i < args.length; i++) {
            Path log = Path.of(args[i]);
            for (int run = 1; run <= runs; run++) {
                long t0 = System.nanoTime();
                long cpu0 = processCpuNanos();
                String what;
                if (read) {
                    long n = 0;
                    try (dev.weft.log.LogReader r = dev.weft.log.LogReader.open(log)) {
                        while (r.next() != null) {
                            n++;
                        }
                    }
                    what = String.format(Locale.ROOT, "read and verified %d records on one parsing thread", n);
                } else if (replay) {
                    ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
                    what = String.format(Locale.ROOT, "replay %d op(s), digest %s", r.count(), Fnv1a.hex16(r.digest()));
                } else {
                    long[] sunk = {0};
                    try (LogIndex index = LogIndex.build(log, List.of("per-channel-fifo", "no-duplicate-delivery"),
                            LogIndex.DEFAULT_CHECKPOINT_EVERY, (r, e) -> sunk[0]++, null, () -> false, cache)) {
                        what = String.format(Locale.ROOT, "index %d records (%d sunk), digest %s, %s", index.size(),
                                sunk[0], Fnv1a.hex16(index.digest()), index.status().kind());
                    }
                }
                System.out.printf(Locale.ROOT, "%-40s run %d: %6.0f ms wall %6.0f ms CPU  %s%n", log.getFileName(), run,
                        (System.nanoTime() - t0) / 1e6, (processCpuNanos() - cpu0) / 1e6, what);
            }
        }
    }
}
