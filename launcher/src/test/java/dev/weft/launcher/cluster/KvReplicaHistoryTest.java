package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Study A (docs/history.md): kvreplica's stale read at the seed docs/examples.md pins is found from its history
 * alone, as a linearizability violation of a register — weft run collects the writer's history lines beside the
 * recording, the same bytes on every run of the seed, and weft check history names the write and the read.
 */
@ExtendWith(ClusterFixture.Ready.class)
class KvReplicaHistoryTest {

    @Test
    void seedZerosStaleReadIsARegisterLinearizabilityViolation(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("kv.weftlog");
        ClusterFixture.Result run = ClusterFixture.record(Map.of(), 0, KvReplicaSeedsTest.NET, 0, log, "kvreplica");
        assertEquals(1, run.exit(), run.all());
        assertEquals("[n0] final=2 expected=8 stale=1\n", run.stdout(), "history lines are not echoed");
        Path history = dir.resolve("kv.history.jsonl");
        assertTrue(run.stderr().contains("history: 18 event(s) from node(s) 0 to " + history), run.all());

        ClusterFixture.Result check = ClusterFixture.weft("check", "history", history.toString(), "--model", "register");
        assertEquals(2, check.exit(), check.all());
        assertTrue(check.stdout().contains("  ✗ the object: write 8 acknowledged at t=24000 ns, then a read invoked at"
                + " t=25000 ns returned 2 (not linearizable)\n"
                + "    smallest inconsistent sub-history found (3 of 9 operations), in invocation order:\n"
                + "      node 0 process 0  write 2  invoked t=4000 ns, acknowledged t=6000 ns  (lines 3–4)\n"
                + "      node 0 process 0  write 8  invoked t=22000 ns, acknowledged t=24000 ns  (lines 15–16)\n"
                + "      node 0 process 0  read → 2  invoked t=25000 ns, returned t=2030000 ns  (lines 17–18)\n"),
                check.stdout());

        // a re-run of the seed collects the same history, byte for byte
        Path again = dir.resolve("again.weftlog");
        ClusterFixture.record(Map.of(), 0, KvReplicaSeedsTest.NET, 0, again, "kvreplica");
        assertArrayEquals(Files.readAllBytes(history), Files.readAllBytes(dir.resolve("again.history.jsonl")));
    }

    @Test
    void seedSixReadsTheLastWriteAndIsLinearizable(@TempDir Path dir) {
        Path log = dir.resolve("kv6.weftlog");
        ClusterFixture.record(Map.of(), 6, KvReplicaSeedsTest.NET, 0, log, "kvreplica");
        ClusterFixture.Result check = ClusterFixture.weft("check", "history", dir.resolve("kv6.history.jsonl").toString(),
                "--model", "register");
        assertEquals(0, check.exit(), check.all());
    }

    @Test
    void withoutARecordingTheLinesArePrinted() {
        ClusterFixture.Result run = ClusterFixture.weftRun(Map.of(), "--seed", "0", "--net", KvReplicaSeedsTest.NET,
                "--", ClusterFixture.example("kvreplica"));
        assertTrue(run.stdout().startsWith("[n0] WEFT-HISTORY {\"process\":0,\"type\":\"invoke\",\"f\":\"write\","
                + "\"value\":1,\"time\":1000}\n"), run.all());
    }
}
