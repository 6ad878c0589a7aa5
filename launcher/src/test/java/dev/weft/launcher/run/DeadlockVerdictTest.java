package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deadlock verdict (docs/broker.md): examples/standoff.c is a ring of nodes each waiting for its predecessor,
 * a deadlock on purpose unless one node starts the token. No watchdog is given, so without the verdict these runs
 * would hang (the test's own timeout would fail them).
 */
class DeadlockVerdictTest {
    @RegisterExtension
    static final CompiledProgram STANDOFF = new CompiledProgram("examples/standoff.c");

    @TempDir
    Path dir;

    private ClusterRunTest.Out ring(Map<String, String> env, Path log, String... options) {
        List<String> args = new java.util.ArrayList<>(List.of("--seed", "3", "--net", "latency=uniform:2000-10000",
                "--nodes", "3", "--record", log.toString()));
        args.addAll(List.of(options));
        args.add("--");
        args.add(STANDOFF.path().toString());
        java.util.Map<String, String> all = new java.util.HashMap<>(env);
        all.put("STANDOFF_NODES", "3");
        return ClusterRunTest.weft(all, args.toArray(String[]::new));
    }

    private static void assertVerdictRecorded(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log);
        String last = lines.get(lines.size() - 1);
        assertTrue(last.contains("\"k\":\"end\""), last);
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"k\":\"violation\",\"invariant\":\"deadlock\","
                + "\"message\":\"node 0 waits in recv on 127.0.0.1:6000; node 1 waits in recv on 127.0.0.2:6000;"
                + " node 2 waits in recv on 127.0.0.3:6000\"")), String.join("\n", lines));
        ReplayReport plain = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(plain.identical(), () -> "diverged: " + plain.divergence());
        // the verdict is the broker's, not an invariant's: checking replays carry it through
        ReplayReport checked = Replayer.replay(log, new ReplayOptions(null, List.of("fifo", "dup")));
        assertTrue(checked.identical(), () -> "diverged: " + checked.divergence());
    }

    @Test
    void aPlainRingWaitingForItselfEndsAtOnceWithTheVerdict() throws Exception {
        Path log = dir.resolve("plain.weftlog");
        ClusterRunTest.Out o = ring(Map.of(), log);
        assertEquals(ClusterRun.DEADLOCK_EXIT, o.exit(), o.stderr());
        assertTrue(o.stderr().contains("weft run: deadlock: node 0 waits in recv on 127.0.0.1:6000; node 1 waits in recv"
                + " on 127.0.0.2:6000; node 2 waits in recv on 127.0.0.3:6000\n"), o.stderr());
        assertVerdictRecorded(log);
    }

    @Test
    void aWindowedRingGetsTheSameVerdictInsteadOfADiscard() throws Exception {
        Path log = dir.resolve("windowed.weftlog");
        ClusterRunTest.Out o = ring(Map.of(), log, "--window", "1000");
        assertEquals(ClusterRun.DEADLOCK_EXIT, o.exit(), o.stderr());
        assertTrue(o.stderr().contains("weft run: deadlock: node 0 waits in recv on 127.0.0.1:6000; node 1 waits in recv"
                + " on 127.0.0.2:6000; node 2 waits in recv on 127.0.0.3:6000\n"), o.stderr());
        assertFalse(o.stderr().contains("discarded"), o.stderr());
        assertVerdictRecorded(log);
    }

    @Test
    void nodesWaitingInPollOrSelectWithNoTimeoutGetTheVerdictToo() throws Exception {
        // the event-loop shape: poll()/select() on the socket alone, no timeout, then recvfrom (before, such a ring
        // ran until the test's timeout: only a blocking recvfrom said it waits forever)
        for (String wait : List.of("poll", "select")) {
            Path log = dir.resolve(wait + ".weftlog");
            ClusterRunTest.Out o = ring(Map.of("STANDOFF_WAIT", wait), log);
            assertEquals(ClusterRun.DEADLOCK_EXIT, o.exit(), wait + ": " + o.stderr());
            assertTrue(o.stderr().contains("weft run: deadlock: node 0 waits in recv on 127.0.0.1:6000; node 1 waits in"
                    + " recv on 127.0.0.2:6000; node 2 waits in recv on 127.0.0.3:6000\n"), o.stderr());
            assertVerdictRecorded(log);
        }
    }

    @Test
    void aRingWhoseTokenGoesRoundEndsNormally() throws Exception {
        ClusterRunTest.Out o = ring(Map.of("STANDOFF_FIRST", "1"), dir.resolve("ok.weftlog"));
        assertEquals(0, o.exit(), o.stderr());
        assertFalse(o.stderr().contains("deadlock"), o.stderr());
        assertTrue(o.stdout().contains("[n2] node 2 got the token") && o.stdout().contains("[n0] node 0 got the token"),
                o.stdout());
    }

    @Test
    void timedWaitsAreNoDeadlock() throws Exception {
        // every node waits with SO_RCVTIMEO: parked at the broker exactly like a deadline-free wait, but it ends
        ClusterRunTest.Out o = ring(Map.of("STANDOFF_TIMEOUT_MS", "200"), dir.resolve("timed.weftlog"));
        assertEquals(0, o.exit(), o.stderr());
        assertFalse(o.stderr().contains("deadlock"), o.stderr());
        assertTrue(o.stdout().contains("[n2] node 2 timed out"), o.stdout());
    }
}
