package dev.weft.launcher.run;

import static dev.weft.launcher.run.ClusterRunTest.weft;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.replay.ReplayReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs that end ({@code --end-when-exited}, the scenario's {@code end_when_exited}): a UDP server that never exits
 * (examples/pingpong.c with PINGPONG_SERVE=0) and its client. Without the option such a run never ends.
 */
class RunEndTest {
    @RegisterExtension
    static final CompiledProgram PINGPONG = new CompiledProgram("examples/pingpong.c");

    @TempDir
    Path dir;

    private ClusterRunTest.Out serverForever(Path log, String... options) {
        List<String> args = new ArrayList<>(List.of("--seed", "5", "--net", "latency=uniform:2000-10000", "--nodes", "2",
                "--watchdog", "30", "--record", log.toString()));
        args.addAll(List.of(options));
        args.add("--");
        args.add(PINGPONG.path().toString());
        return weft(Map.of("PINGPONG_SERVE", "0"), args.toArray(String[]::new));
    }

    @Test
    void aPlainRunEndsWhenTheClientHasExitedAndTheServerIsNoFailure() throws Exception {
        Path log = dir.resolve("plain.weftlog");
        ClusterRunTest.Out o = serverForever(log, "--end-when-exited", "1");
        assertEquals(0, o.exit(), o.stderr());
        assertTrue(o.stdout().contains("[n1] client got: PONG:"), o.stdout());
        assertTrue(o.stderr().contains("weft run: node(s) 1 exited; the run ends: SIGTERM to node(s) 0, SIGKILL after a"
                + " grace of 1000000000 ns virtual"), o.stderr());
        assertFalse(o.stderr().contains("exited with status"), o.stderr());
        assertSignalledNodeZeroThenEnded(log);
        ReplayReport r = ClusterRunTest.replaysIdentically(log);
        assertTrue(r.sawEnd(), "the log has its end record");
    }

    @Test
    void aWindowedRunEndsAtTheSameCutEveryTime() throws Exception {
        byte[] first = null;
        for (int i = 0; i < 3; i++) {
            Path log = dir.resolve("w" + i + ".weftlog");
            ClusterRunTest.Out o = serverForever(log, "--window", "1000", "--end-when-exited", "1", "--grace", "5000000");
            assertEquals(0, o.exit(), o.stderr()); // a node stopped at the end does not discard a windowed run
            assertTrue(o.stderr().matches("(?s).*weft run: node\\(s\\) 1 exited; the run ends at vt [0-9]+: SIGTERM to"
                    + " node\\(s\\) 0, SIGKILL after a grace of 5000000 ns virtual.*"), o.stderr());
            byte[] bytes = Files.readAllBytes(log);
            if (first == null) {
                first = bytes;
                assertSignalledNodeZeroThenEnded(log);
                assertTrue(ClusterRunTest.replaysIdentically(log).sawEnd());
            } else {
                assertArrayEquals(first, bytes, "run " + i + " recorded different bytes");
            }
        }
    }

    /** The server (node 0), still connected at the end, gets a signal record; then its disconnect and end. */
    private static void assertSignalledNodeZeroThenEnded(Path log) throws Exception {
        List<String> lines = Files.readAllLines(log);
        int signal = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains("\"e\":{\"k\":\"signal\"")) {
                assertEquals(-1, signal, "one signal record");
                signal = i;
                assertTrue(lines.get(i).contains("{\"k\":\"signal\",\"node\":0,\"signal\":\"SIGTERM\","
                        + "\"reason\":\"end_when_exited\"}"), lines.get(i));
            }
        }
        assertTrue(signal > 0, "a signal record: " + String.join("\n", lines));
        assertTrue(lines.get(signal + 1).contains("\"k\":\"disconnect\""), lines.get(signal + 1));
        assertTrue(lines.get(lines.size() - 1).contains("\"k\":\"end\""));
    }

    @Test
    void theListedNodesStatusIsTheRuns() {
        // every datagram lost: the client gives up (exit 1); the server stopped at the end is not the failure
        ClusterRunTest.Out o = weft(Map.of("PINGPONG_SERVE", "0", "PINGPONG_TRIES", "2", "PINGPONG_WAIT", "2"),
                "--seed", "1", "--net", "loss=1", "--nodes", "2", "--end-when-exited", "1", "--watchdog", "30", "--",
                PINGPONG.path().toString());
        assertEquals(1, o.exit(), o.stderr());
        assertTrue(o.stderr().contains("weft run: node 1 exited with status 1"), o.stderr());
        assertFalse(o.stderr().contains("node 0 exited"), o.stderr());
    }

    @Test
    void aScenarioNamesTheNodesItEndsWith() throws Exception {
        Path scenario = dir.resolve("s.json");
        Files.writeString(scenario, "{\"name\":\"server forever\",\"seed\":3,\"end_when_exited\":[1],"
                + "\"network\":{\"latency\":\"uniform:2000-10000\"},\"nodes\":["
                + "{\"node_id\":0,\"program\":\"" + PINGPONG.path() + "\",\"args\":[]},"
                + "{\"node_id\":1,\"program\":\"" + PINGPONG.path() + "\",\"args\":[]}]}");
        ClusterRunTest.Out o = weft(Map.of("PINGPONG_SERVE", "0"), "--watchdog", "30", scenario.toString());
        assertEquals(0, o.exit(), o.stderr());
        assertTrue(o.stderr().contains("weft run: node(s) 1 exited; the run ends: SIGTERM to node(s) 0"), o.stderr());

        Files.writeString(scenario, Files.readString(scenario).replace("[1]", "[4]"));
        ClusterRunTest.Out bad = weft(Map.of(), scenario.toString());
        assertEquals(2, bad.exit(), bad.stderr());
        assertEquals("weft run: " + scenario + ": end_when_exited: node 4 is not one of the scenario's nodes\n",
                bad.stderr());
    }
}
