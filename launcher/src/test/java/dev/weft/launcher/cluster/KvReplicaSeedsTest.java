package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kvreplica's arrival-order bug is a pure function of the seed under weft run: a stale read on seed 0 and a
 * correct one on seed 6, every time (20 of 20, same output and the same recorded traffic), and never a stale
 * read on a reliable network, whose queues deliver in send order. "Same traffic": every record but the
 * disconnects, whose order at process exit is the kernel's (two sockets closed by one exit reach the broker's
 * two connection threads in either order) and with them the ops, chains and end record.
 */
@ExtendWith(ClusterFixture.Ready.class)
class KvReplicaSeedsTest {
    static final String NET = "latency=uniform:1000-50000";

    /** Seed 0 reads stale (exit 1), seed 6 reads correctly (exit 0): each twenty times out of twenty. */
    @ParameterizedTest(name = "seed {0}: exit {1}, {2}")
    @CsvSource({
        "0, 1, '[n0] final=2 expected=8 stale=1'",
        "6, 0, '[n0] final=8 expected=8 stale=0'"})
    void seedIsPinnedTwentyTimesOutOfTwenty(long seed, int exit, String stdoutLine, @TempDir Path dir)
            throws Exception {
        assertPinned(dir, seed, exit, stdoutLine + "\n");
    }

    @Test
    void neverStaleOnAReliableNetwork(@TempDir Path dir) {
        for (long seed = 0; seed < 10; seed++) {
            var r = ClusterFixture.record(Map.of(), seed, "", 0, dir.resolve("kv" + seed + ".weftlog"), "kvreplica");
            assertEquals("[n0] final=8 expected=8 stale=0\n", r.stdout(), "seed " + seed + "\n" + r.all());
            assertEquals(0, r.exit(), r.all());
        }
    }

    /** The recorded events in order, without disconnects and the end record (see the class comment). */
    static List<String> traffic(byte[] log) {
        return new String(log, StandardCharsets.UTF_8).lines().skip(1)
                .map(l -> l.substring(l.indexOf("\"e\":"), l.lastIndexOf(",\"chain\":")))
                .filter(e -> !e.contains("\"k\":\"disconnect\"") && !e.contains("\"k\":\"end\""))
                .toList();
    }

    private static void assertPinned(Path dir, long seed, int exit, String stdout) throws Exception {
        List<String> first = null;
        for (int i = 0; i < 20; i++) {
            Path log = dir.resolve("kv-" + i + ".weftlog");
            var r = ClusterFixture.record(Map.of(), seed, NET, 0, log, "kvreplica");
            assertEquals(stdout, r.stdout(), "run " + i + "\n" + r.all());
            assertEquals(exit, r.exit(), r.all());
            List<String> traffic = traffic(Files.readAllBytes(log));
            if (first == null) {
                first = traffic;
            }
            assertEquals(first, traffic, "run " + i + " recorded different traffic");
        }
    }
}
