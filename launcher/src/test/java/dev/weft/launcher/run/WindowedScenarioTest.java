package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft run SCENARIO.json --window NS} (same seed ⇒ same bytes, partitions by virtual send time, crash and
 * start refused) and the {@code --window-ops} overflow discard. Adds about 4 s of test time.
 */
class WindowedScenarioTest {
    static Path pingpong;
    static Path bigflow;

    @TempDir
    Path dir;

    @BeforeAll
    static void compile() throws Exception {
        NativeFixture.assumeBuilt();
        pingpong = compileExample("pingpong");
        bigflow = compileExample("bigflow");
    }

    private static Path compileExample(String name) throws Exception {
        return NativeFixture.compileForTest("examples/" + name + ".c");
    }

    /** Windowed pingpong whose first PINGs fall in a partition (node 1 resends until it is cleared). */
    private Path scenario(String events) throws Exception {
        Path s = dir.resolve("sc.json");
        Files.writeString(s, """
                {"name": "windowed pingpong", "seed": 44,
                 "nodes": [{"node_id": 0, "program": "%1$s", "args": []}, {"node_id": 1, "program": "%1$s", "args": []}],
                 "network": {"latency": "uniform:2000-10000"},
                 "events": [%2$s]}
                """.formatted(pingpong, events));
        return s;
    }

    @Test
    void aWindowedScenarioRecordsTheSameBytesTwiceAndItsPartitionCutsBySendTime() throws Exception {
        Path s = scenario("""
                {"time_ns": 0, "action": {"type": "activate_partition", "spec": "0|1"}},
                {"time_ns": 30000000, "action": {"type": "clear_partition"}}""");
        byte[] first = null;
        for (int i = 0; i < 2; i++) {
            Path log = dir.resolve("sc" + i + ".weftlog");
            ClusterRunTest.Out o = ClusterRunTest.weft("--window", "1000", "--watchdog", "20", "--stats", "--record",
                    log.toString(), s.toString());
            assertEquals(0, o.exit(), o.stderr());
            assertTrue(o.stdout().contains("[n1] client got: PONG:"), o.stdout());
            // the PINGs sent before t = 30 ms were cut (not recorded); the resend after it got through
            assertTrue(o.stderr().contains("2 cut by scenario partitions (not in the log)"), o.stderr());
            assertTrue(o.stderr().contains("[weft] scenario t=30000000: partition cleared"), o.stderr());
            byte[] bytes = Files.readAllBytes(log);
            assertTrue(new String(bytes, 0, 120).contains("\"window_ns\":1000"), "the header says windowed");
            if (first == null) {
                first = bytes;
            } else {
                assertTrue(Arrays.equals(first, bytes), "two live runs of one windowed scenario differ");
            }
        }
        ClusterRunTest.replaysIdentically(dir.resolve("sc0.weftlog"));
    }

    @Test
    void aWindowedScenarioWithACrashIsRefusedBeforeAnythingStarts() throws Exception {
        Path s = scenario("""
                {"time_ns": 5000, "action": {"type": "crash", "node_id": 1}}""");
        ClusterRunTest.Out o = ClusterRunTest.weft("--window", "1000", s.toString());
        assertEquals(RunCommand.USAGE_ERROR, o.exit(), o.stderr());
        assertEquals("weft run: " + s + ": --window: a windowed run cannot have crash or start events (t=5000): a"
                + " node that ends without Goodbye discards a windowed run, and a restarted node's clock starts"
                + " over; partition events are fine\n", o.stderr());
        assertFalse(o.stdout().contains("[n"), "nothing ran");
    }

    @Test
    void aNodeThatBuffersMoreThanWindowOpsSendsInOneWindowDiscardsTheRun() throws Exception {
        // bigflow's sender sends bursts of 64 datagrams back to back: many sends within one 1 ms window
        Path log = dir.resolve("flow.weftlog");
        ClusterRunTest.Out o = ClusterRunTest.weft("--seed", "1", "--net", "latency=uniform:1000000-2000000",
                "--window", "1000000", "--window-ops", "8", "--nodes", "2", "--watchdog", "20", "--record",
                log.toString(), "--", "env", "BIGFLOW_COUNT=200", bigflow.toString());
        assertEquals(ClusterRun.DISCARDED_EXIT, o.exit(), o.stderr());
        String[] discards = o.stderr().lines().filter(l -> l.startsWith("weft run: run discarded:"))
                .toArray(String[]::new);
        assertEquals(1, discards.length, o.stderr());
        assertTrue(discards[0].matches("weft run: run discarded: node 0 buffered more than 8 sends in window \\d+"
                + " \\(--window-ops\\); no recording kept"), discards[0]);
        assertFalse(Files.exists(log), "a discarded run leaves no log");
    }
}
