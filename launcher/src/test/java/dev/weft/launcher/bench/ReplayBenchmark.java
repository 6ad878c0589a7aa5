package dev.weft.launcher.bench;

import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.replay.LogIndex;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * In-process figures for the replay engine, start-up excluded (bench/replay-bench.sh prints the end-to-end ones):
 * read-only and full-replay throughput (records/s, MB/s) warm, LogIndex build time and heap, and the cost of
 * stateAt(N) for random N. Usage: ReplayBenchmark PLAIN_LOG [GZIP_LOG].
 */
public final class ReplayBenchmark {

    private ReplayBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        for (String a : args) {
            Path log = Path.of(a);
            double mb = Files.size(log) / 1e6;
            System.out.printf("%n== %s (%.1f MB on disk)%n", log.getFileName(), mb);
            long records = 0;
            double bestRead = Double.MAX_VALUE;
            double bestReplay = Double.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                long t0 = System.nanoTime();
                try (LogReader r = LogReader.open(log)) {
                    LogRecord rec;
                    records = 0;
                    while ((rec = r.next()) != null) {
                        records++;
                    }
                }
                bestRead = Math.min(bestRead, (System.nanoTime() - t0) / 1e9);
                t0 = System.nanoTime();
                ReplayReport rep = Replayer.replay(log, ReplayOptions.PLAIN);
                bestReplay = Math.min(bestReplay, (System.nanoTime() - t0) / 1e9);
                if (!rep.identical()) {
                    throw new IllegalStateException("benchmark log does not replay identically");
                }
            }
            System.out.printf("read+verify : %.3f s  %,.0f records/s  %.0f MB/s (best of 3, warm JVM)%n",
                    bestRead, records / bestRead, mb / bestRead);
            System.out.printf("replay      : %.3f s  %,.0f records/s  %.0f MB/s (best of 3, warm JVM)%n",
                    bestReplay, records / bestReplay, mb / bestReplay);

            System.gc();
            long heapBefore = usedHeap();
            long t0 = System.nanoTime();
            try (LogIndex index = LogIndex.build(log, List.of("per-channel-fifo", "no-duplicate-delivery"),
                    LogIndex.DEFAULT_CHECKPOINT_EVERY, null, null, () -> false, Path.of("target", "bench-cache"))) {
                double build = (System.nanoTime() - t0) / 1e9;
                System.gc();
                long heap = usedHeap() - heapBefore;
                System.out.printf("index build : %.3f s; index heap %.1f MB = %.1f bytes/record%n", build, heap / 1e6,
                        (double) heap / index.size());
                SplittableRandom rnd = new SplittableRandom(42);
                int n = 500;
                double[] ms = new double[n];
                for (int i = 0; i < n; i++) {
                    long op = rnd.nextLong(index.size());
                    long q0 = System.nanoTime();
                    index.stateAt(op);
                    ms[i] = (System.nanoTime() - q0) / 1e6;
                }
                Arrays.sort(ms);
                System.out.printf("stateAt(N)  : p50 %.2f ms  p99 %.2f ms  max %.2f ms over %d random N (target < 50 ms)%n",
                        ms[n / 2], ms[(int) (n * 0.99)], ms[n - 1], n);
            }
        }
    }

    private static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
