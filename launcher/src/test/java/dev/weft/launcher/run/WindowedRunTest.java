package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft run --window}: the windowed broker with real processes (examples/pingpong.c, compiled here). Pins
 * same seed ⇒ same bytes, the configuration the reference discards as "LateOp", replay, and the clean discards.
 * Adds about 5 s of test time.
 */
class WindowedRunTest {
    /** The configuration the reference discards with a LateOp protocol violation. */
    static final String NET = "latency=uniform:2000-10000";

    @RegisterExtension
    static final CompiledProgram PINGPONG = new CompiledProgram("examples/pingpong.c");

    @RegisterExtension
    static final CompiledProgram CHORD = new CompiledProgram("examples/chord_node.c");

    @TempDir
    Path dir;

    private ClusterRunTest.Out pingpong(long seed, Path log, String... extra) {
        return windowedRun(PINGPONG.path(), seed, log, extra);
    }

    /** Two nodes of program on the {@link #NET} network in 1 µs windows, recorded to log; extra goes before "--". */
    static ClusterRunTest.Out windowedRun(Path program, long seed, Path log, String... extra) {
        String[] base = {"--seed", Long.toString(seed), "--net", NET, "--window", "1000", "--nodes", "2",
                "--watchdog", "20", "--record", log.toString()};
        String[] all = Arrays.copyOf(base, base.length + extra.length + 2);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        all[all.length - 2] = "--";
        all[all.length - 1] = program.toString();
        return ClusterRunTest.weft(all);
    }

    @Test
    void fiveLiveRunsOfOneSeedRecordTheSameBytesAndReplayIdentically() throws Exception {
        byte[] first = null;
        for (int i = 0; i < 5; i++) {
            Path log = dir.resolve("pp" + i + ".weftlog");
            ClusterRunTest.Out o = pingpong(44, log);
            assertEquals(0, o.exit(), o.stderr()); // the reference discards this run as LateOp
            assertTrue(o.stdout().contains("[n1] client got: PONG:"), o.stdout());
            byte[] bytes = Files.readAllBytes(log);
            if (first == null) {
                first = bytes;
                assertTrue(new String(bytes, 0, 120).contains("\"window_ns\":1000"), "the header says windowed");
            } else {
                assertTrue(Arrays.equals(first, bytes), "run " + i + " recorded different bytes");
            }
        }
        ReplayReport r = Replayer.replay(dir.resolve("pp0.weftlog"), ReplayOptions.PLAIN);
        assertTrue(r.identical(), () -> "diverged: " + r.divergence());
        assertTrue(r.sawEnd());
        ClusterRunTest.Out other = pingpong(45, dir.resolve("other.weftlog"));
        assertEquals(0, other.exit(), other.stderr());
        assertFalse(Arrays.equals(first, Files.readAllBytes(dir.resolve("other.weftlog"))), "seeds 44 and 45 differ");
    }

    @Test
    void sevenNodesStartedTogetherRecordTheSameBytesRunAfterRun() throws Exception {
        // this host's nodes start concurrently (ConcurrentStarts): which one connects first varies from run to run,
        // the recording of a seed must not
        Map<String, String> env = Map.of("CHORD_NNODES", "7", "CHORD_FIX", "0");
        byte[] first = null;
        for (int i = 0; i < 2; i++) {
            Path log = dir.resolve("chord" + i + ".weftlog");
            ClusterRunTest.Out o = ClusterRunTest.weft(env, "--seed", "3", "--net", "latency=uniform:1000-60000",
                    "--window", "1000", "--nodes", "7", "--watchdog", "20", "--record", log.toString(), "--",
                    CHORD.path().toString(), "6", "30", "3");
            assertTrue(Files.isRegularFile(log), o.stderr());
            byte[] bytes = Files.readAllBytes(log);
            if (first == null) {
                first = bytes;
            } else {
                assertTrue(Arrays.equals(first, bytes), "the second run recorded different bytes");
            }
        }
        ReplayReport r = Replayer.replay(dir.resolve("chord1.weftlog"), ReplayOptions.PLAIN);
        assertTrue(r.identical(), () -> "diverged: " + r.divergence());
    }

    @Test
    void statsReportWindowsLagAndTheLargestBuffer() {
        ClusterRunTest.Out o = pingpong(7, dir.resolve("s.weftlog"), "--stats");
        assertEquals(0, o.exit(), o.stderr());
        assertTrue(o.stderr().matches("(?s).*weft broker: windowed \\(window 1000 ns\\): [1-9][0-9]* window\\(s\\) sealed;"
                + " largest per-window buffer of one node: 1 send\\(s\\).*"), o.stderr());
        assertTrue(o.stderr().contains("weft broker: frontier lag per node (max ns behind the fastest): 0="), o.stderr());
    }

    @Test
    void aWindowLargerThanTheMinimumLatencyIsRefused() {
        ClusterRunTest.Out o = ClusterRunTest.weft("--seed", "1", "--net", NET, "--window", "2001", "--nodes", "2",
                "--", PINGPONG.path().toString());
        assertEquals(RunCommand.USAGE_ERROR, o.exit());
        assertTrue(o.stderr().startsWith("weft run: --window 2001: the network's minimum latency (2000 ns) is below"
                + " the window (2001 ns)"), o.stderr());
    }

    @Test
    void aNodeKilledMidRunIsACleanDiscard() throws Exception {
        Path log = dir.resolve("killed.weftlog");
        Path victim = dir.resolve("pp-victim");
        Files.copy(PINGPONG.path(), victim);
        victim.toFile().setExecutable(true);
        // node 0's server waits for a PING that never comes (node 1 runs without connecting, blocked opening a fifo
        // nobody writes: had it exited, node 0 would wait forever, a deadlock verdict); the test then SIGKILLs it
        // (found by its unique path) while its socket is open
        Path fifo = dir.resolve("never-written");
        ClusterRunTest.Out[] result = new ClusterRunTest.Out[1];
        Thread run = new Thread(() -> result[0] = ClusterRunTest.weft("--seed", "1", "--net", NET, "--window", "1000",
                "--nodes", "2", "--watchdog", "20", "--record", log.toString(), "--", "sh", "-c",
                "if [ \"$WEFT_NODE_ID\" = 0 ]; then exec " + victim + "; fi; mkfifo " + fifo + " && exec cat " + fifo));
        run.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        boolean killed = false;
        while (!killed && System.nanoTime() < deadline) {
            Thread.sleep(300);
            for (ProcessHandle h : ProcessHandle.allProcesses().toList()) {
                if (h.info().command().map(c -> c.equals(victim.toString())).orElse(false)) {
                    killed = h.destroyForcibly();
                }
            }
        }
        run.join(TimeUnit.SECONDS.toMillis(30));
        assertTrue(killed, "the node was found and killed");
        ClusterRunTest.Out o = result[0];
        assertEquals(ClusterRun.DISCARDED_EXIT, o.exit(), o.stderr());
        assertTrue(o.stderr().contains("weft run: run discarded: node 0 (conn 0) ended without Goodbye (killed or"
                + " crashed mid-run); no recording kept"), o.stderr());
        assertFalse(Files.exists(log), "a discarded run leaves no half-written log");
    }

    @Test
    void aDeadlockIsAVerdictNotAHang() {
        // a lone server waits for a PING nobody will send
        ClusterRunTest.Out o = ClusterRunTest.weft("--seed", "1", "--net", NET, "--window", "1000", "--nodes", "1",
                "--watchdog", "20", "--", PINGPONG.path().toString());
        assertEquals(ClusterRun.DEADLOCK_EXIT, o.exit(), o.stderr());
        assertTrue(o.stderr().contains("weft run: deadlock: node 0 waits in recv on 127.0.0.1:4000\n"), o.stderr());
    }

    @Test
    void windowOpsLimitsOneNodesBufferPerWindow() {
        ClusterRunTest.Out ok = pingpong(3, dir.resolve("w1.weftlog"), "--window-ops", "1");
        assertEquals(0, ok.exit(), ok.stderr());
        ClusterRunTest.Out usage = ClusterRunTest.weft("--seed", "1", "--window", "5", "--", "true");
        assertEquals(RunCommand.USAGE_ERROR, usage.exit());
        assertNotEquals(-1, usage.stderr().indexOf("--window needs --net"), usage.stderr());
    }
}
