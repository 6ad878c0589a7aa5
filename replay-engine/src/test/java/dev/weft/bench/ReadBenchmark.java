package dev.weft.bench;

import dev.weft.log.Fnv1a;
import dev.weft.log.LogReader;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * Reader throughput on the 1M-record corpus log: parse + canonical re-serialization + chain and digest,
 * plain (decompressed once into target/) and gzip. Not a unit test; run from the module directory:
 * <pre>
 *   mvn -q -B -o test-compile -pl replay-engine -am
 *   java -cp replay-engine/target/classes:replay-engine/target/test-classes dev.weft.bench.ReadBenchmark [rounds]
 * </pre>
 * The first rounds include JIT warm-up; the best and median of the later rounds are the figures to quote.
 */
public final class ReadBenchmark {

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path shared = dev.weft.testcorpus.SharedCorpus.sharedDir();
        Path gz = shared.resolve("conformance/large/bigflow-1m-fixed1000-s7.weftlog.gz").toAbsolutePath().normalize();
        Path target = Paths.get(System.getProperty("bench.dir", "replay-engine/target"));
        if (!Files.isDirectory(target)) {
            target = Paths.get("target");
        }
        Path plain = target.resolve("bigflow-1m-fixed1000-s7.weftlog");
        if (!Files.exists(plain)) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(gz), 1 << 16);
                 OutputStream out = Files.newOutputStream(plain)) {
                in.transferTo(out);
            }
        }
        System.out.printf(Locale.ROOT, "JVM start-up is not included; %d rounds each%n", rounds);
        run("plain", plain, rounds, false);
        run("gzip ", gz, rounds, false);
        run("plain, background thread", plain, rounds, true);
        run("gzip, background thread", gz, rounds, true);
        canonicalHashing(plain);
    }

    private static void run(String label, Path log, int rounds, boolean background) throws Exception {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] nanos = new long[rounds];
        long[] cpu = new long[rounds];
        long[] processCpu = new long[rounds];
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long records = 0;
        long bytes = 0;
        String digest = "";
        for (int i = 0; i < rounds; i++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long p0 = os.getProcessCpuTime();
            long t0 = System.nanoTime();
            try (LogReader r = background ? LogReader.openInBackground(log) : LogReader.open(log)) {
                records = r.verifyAll();
                digest = Fnv1a.hex16(r.streamDigest());
                bytes = r.lastRecordOffset();
            }
            nanos[i] = System.nanoTime() - t0;
            cpu[i] = threads.getCurrentThreadCpuTime() - c0;
            processCpu[i] = os.getProcessCpuTime() - p0;
            System.out.printf(Locale.ROOT, "%s round %d: %.3f s wall, %.0f records/s, %.1f MB/s (uncompressed); "
                            + "calling thread CPU %.3f s, process CPU (all threads, GC, JIT) %.3f s%n", label, i,
                    nanos[i] / 1e9, records / (nanos[i] / 1e9), bytes / 1e6 / (nanos[i] / 1e9),
                    cpu[i] / 1e9, processCpu[i] / 1e9);
        }
        java.util.Arrays.sort(nanos);
        java.util.Arrays.sort(cpu);
        java.util.Arrays.sort(processCpu);
        long best = nanos[0];
        long median = nanos[rounds / 2];
        System.out.printf(Locale.ROOT, "%s: %d records, digest %s; best %.3f s = %.0f records/s, %.1f MB/s; median %.3f s = %.0f records/s%n",
                label, records, digest, best / 1e9, records / (best / 1e9), bytes / 1e6 / (best / 1e9), median / 1e9,
                records / (median / 1e9));
        if (!background) {
            System.out.printf(Locale.ROOT, "%s: calling thread CPU best %.3f s = %.0f records/s, %.1f MB/s "
                            + "(wall time is inflated when other processes share the cores)%n",
                    label, cpu[0] / 1e9, records / (cpu[0] / 1e9), bytes / 1e6 / (cpu[0] / 1e9));
        }
        System.out.printf(Locale.ROOT, "%s: process CPU best %.3f s%n", label, processCpu[0] / 1e9);
    }

    /** What a replayer pays to hash a replayed event: CanonicalJson.hashRecord over 100k real records. */
    private static void canonicalHashing(Path log) throws Exception {
        java.util.List<dev.weft.log.LogRecord> sample = new java.util.ArrayList<>();
        try (LogReader r = LogReader.open(log)) {
            dev.weft.log.LogRecord rec;
            while (sample.size() < 100_000 && (rec = r.next()) != null) {
                sample.add(rec);
            }
        }
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long best = Long.MAX_VALUE;
        long h = 0;
        for (int round = 0; round < 10; round++) {
            long t0 = threads.getCurrentThreadCpuTime();
            h = Fnv1a.OFFSET_BASIS;
            for (dev.weft.log.LogRecord rec : sample) {
                h = dev.weft.log.CanonicalJson.hashRecord(h, rec.op(), rec.vt(), rec.event());
            }
            best = Math.min(best, threads.getCurrentThreadCpuTime() - t0);
        }
        System.out.printf(Locale.ROOT, "CanonicalJson.hashRecord: best %.1f ns CPU/record (%.0f records/s), digest of sample %s%n",
                (double) best / sample.size(), sample.size() / (best / 1e9), Fnv1a.hex16(h));
    }

    private ReadBenchmark() {
    }

}
