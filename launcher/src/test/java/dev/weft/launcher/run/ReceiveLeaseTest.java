package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receive lease (docs/broker.md, "Receive leases"): launcher/src/test/c/lease_poll.c polls its socket 100 times
 * with MSG_DONTWAIT while the only other node waits in a held blocking receive for its "GO". Once the broker has
 * said that nothing can reach node 0 until it asks again, node 0's shim answers its polls itself: no request each.
 */
class ReceiveLeaseTest {
    private static final Pattern LEASED = Pattern.compile("\\[weft\\] network: (\\d+) receive\\(s\\) answered from a lease");
    @RegisterExtension
    static final CompiledProgram PROGRAM = new CompiledProgram("launcher/src/test/c/lease_poll.c");

    @TempDir
    Path dir;

    private static ClusterRunTest.Out run(Path log) {
        return ClusterRunTest.weft(Map.of(), "--seed", "5", "--net", "latency=uniform:1000-60000", "--nodes", "2",
                "--window", "1000", "--stats", "--record", log.toString(), "--", PROGRAM.path().toString());
    }

    @Test
    void pollsAfterALeaseAreAnsweredByTheShimAndTheRecordingStaysTheSame() throws Exception {
        Path a = dir.resolve("a.weftlog");
        Path b = dir.resolve("b.weftlog");
        ClusterRunTest.Out first = run(a);
        ClusterRunTest.Out second = run(b);
        for (ClusterRunTest.Out o : new ClusterRunTest.Out[] {first, second}) {
            assertEquals(0, o.exit(), o.stderr());
            String all = o.stdout() + o.stderr();
            assertTrue(all.contains("node 0: 100 of 100 polls empty"), all);
            assertTrue(all.contains("node 1 got GO"), all);
            Matcher m = LEASED.matcher(all);
            assertTrue(m.find(), "no poll was answered from a lease:\n" + all);
            // the polls before node 1 waits reach the broker (how many depends on real time); the rest cannot
            assertTrue(Integer.parseInt(m.group(1)) >= 90, all);
        }
        // which polls reached the broker differs from run to run; the recording does not
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        String log = Files.readString(a);
        assertFalse(log.contains("\"kind\":\"empty\""), "a leased empty receive was recorded:\n" + log);
        assertTrue(log.contains("\"k\":\"recv\""), log); // node 1's delivered GO
        ReplayReport r = Replayer.replay(a, ReplayOptions.PLAIN);
        assertTrue(r.identical(), () -> "diverged: " + r.divergence());
    }
}
