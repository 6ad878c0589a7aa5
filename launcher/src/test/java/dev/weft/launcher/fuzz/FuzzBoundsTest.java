package dev.weft.launcher.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.support.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 12 item 4: a fuzz run's heap need is computed before it runs, and its reproducer bytes are bounded. */
class FuzzBoundsTest {

    /** The issue's config: 100,000 sends of 10,000 bytes (about 2 GB of heap per job and 4 GB per unshrunk reproducer). */
    static final String HUGE = "{\"net\":\"latency=uniform:0-8000,loss=0.02\","
            + "\"workload\":{\"nodes\":2,\"sends\":100000,\"payload_len\":10000}}";

    @TempDir
    Path dir;

    @Test
    void aWorkloadThatCannotFitTheHeapIsRefusedInOneLineBeforeItRuns() throws Exception {
        CommandRun.write(dir.resolve("big.json"), HUGE);
        // A real JVM with a small heap: before the budget this grew until OutOfMemoryError (a stack trace).
        ChildJvm.Result r = ChildJvm.run(dir, List.of("-Xmx256m", "-XX:+UseSerialGC"), 120, FuzzCommand.class,
                "--config", "big.json", "--seeds", "0:3", "--no-shrink", "--out", "OUT");
        assertTrue(r.ended(), "did not end within 120 s; stderr: " + r.err());
        assertEquals(1, r.exit(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().matches("weft fuzz: config big\\.json: the workload \\(2 node\\(s\\), 100000 send\\(s\\) of 10000 "
                + "byte\\(s\\)\\) needs up to \\d+ MiB of heap \\(\\d+ MiB of ops \\+ \\d+ MiB per job\\) but \\d+ MiB are "
                + "available; lower workload\\.sends or workload\\.payload_len, or give the JVM more heap \\(-Xmx\\)\n"), r.err());
        assertFalse(Files.exists(dir.resolve("OUT")), "nothing is created for a refused run");
    }

    @Test
    void theIssuesWorkloadSweepsInA256MegabyteHeap() throws Exception {
        CommandRun.write(dir.resolve("big.json"), HUGE);
        // A sweep holds no payload (a lazily generated workload, a payload-blind core): before, the workload's 1 GB of
        // payloads and each job's copies of its pending ones (0.75 GB) made it refuse or run out of heap here.
        ChildJvm.Result r = ChildJvm.run(dir, List.of("-Xmx256m", "-XX:+UseSerialGC"), 120, FuzzCommand.class,
                "--config", "big.json", "--seeds", "0:1", "--jobs", "1", "--shard", "0/1", "--out", "S");
        assertTrue(r.ended(), "did not end within 120 s; stderr: " + r.err());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.out().startsWith("shard 0/1: 1 seed(s) swept, 1 failing, 2 distinct violation(s)"), r.out());
    }

    @Test
    void reproducersThatWouldPassMaxOutputAreNotWrittenAndTheDiskStaysWithinIt() throws Exception {
        // Unshrunk, each reproducer of this workload is ~10 MB; the bound lets none of them through.
        CommandRun.write(dir.resolve("cfg.json"), "{\"net\":\"latency=uniform:0-8000,loss=0.02\","
                + "\"workload\":{\"nodes\":2,\"sends\":4000,\"payload_len\":1000}}");
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:2", "--no-shrink", "--jobs", "1",
                "--out", "OUT", "--max-output", "200000");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains(": the reproducers would pass 200000 bytes (--max-output)\n"), r.err());
        assertFalse(r.out().contains("repro  :"), r.out());
        long total = 0;
        try (Stream<Path> files = Files.list(dir.resolve("OUT"))) {
            for (Path p : files.toList()) {
                assertFalse(p.getFileName().toString().endsWith(".weft-tmp"), "temporary file left: " + p);
                if (!p.getFileName().toString().equals("report.txt")) total += Files.size(p);
            }
        }
        assertTrue(total <= 200000, "reproducer bytes " + total);
    }

    @Test
    void maxOutputLetsSmallReproducersThroughAndCountsThemTogether() throws Exception {
        CommandRun.write(dir.resolve("cfg.json"), FuzzCommandTest.VECTOR_CONFIG);
        // The §11 vector's six shrunk reproducers are 2-3 KB each: 8,000 bytes hold some, not all.
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:20", "--jobs", "1", "--out", "OUT",
                "--max-output", "8000");
        assertEquals(2, r.exit(), r.err());
        int written = r.out().split("    repro  : ", -1).length - 1;
        assertTrue(written >= 1 && written < 6, r.out());
        assertEquals(6 - written, r.err().split("would pass 8000 bytes", -1).length - 1, r.err());
    }

    @Test
    void maxOutputNeedsAByteCount() {
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--max-output", "lots");
        assertEquals(1, r.exit());
        assertEquals("weft fuzz: --max-output \"lots\": not a byte count\n", r.err());
    }
}
