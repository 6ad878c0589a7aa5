package dev.weft.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The committed shrunk hit of the Redis failover study (examples/recordings/redis-lost-write, made by its
 * regenerate.sh) stays what the workbench's RedisLostWriteUiTest opens: it replays identically, is small, and its
 * history shows client 0's add 84, acknowledged by the cut-off primary, missing from the final read.
 */
class RedisLostWriteFixtureTest {

    private static final Path DIR = fixtureDir();

    @Test
    void theRecordingReplaysIdenticallyAndStaysSmall() throws Exception {
        Path log = DIR.resolve("lost-write.weftlog.gz");
        assertTrue(Files.size(log) < 2_000_000, "the fixture's size budget is 2 MB: " + Files.size(log));
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertTrue(r.identical(), "diverged: " + r.divergence());
        assertEquals(5388, r.count());
        assertEquals(1000, r.header().windowNs(), "a windowed run");
        assertEquals(1, r.header().seed());
    }

    @Test
    void theHistoryLosesClientZerosAcknowledgedAdd() throws Exception {
        HistoryCheck.Verdict v = HistoryCheck.check(DIR.resolve("lost-write.history.jsonl"), HistoryModel.SET);
        assertEquals(HistoryCheck.VIOLATION, v.exitCode(), v.text());
        assertEquals(1, v.findings().size(), v.text());
        Finding f = v.findings().get(0);
        assertEquals("the object: add 84 acknowledged at t=20753227109 ns, then a read invoked at t=22002900336 ns"
                + " does not contain 84 (not linearizable)", f.headline());
        // the finding names the add and the read, though its sub-history keeps every add the read returned
        List<Operation> named = f.named();
        assertEquals(2, named.size());
        assertEquals("node 6 process 0", named.get(0).client());
        assertEquals("add 84", HistoryText.what(named.get(0)));
        assertTrue(named.get(0).invokeTime() > 15_000_000_000L, "acknowledged after the partition at 15 s");
        assertEquals("node 8 process 2", named.get(1).client());
        assertEquals(OpFunction.READ, named.get(1).f());
        assertTrue(f.operations().size() > named.size(), "the sub-history is larger than what the headline names");
        assertTrue(f.operations().containsAll(named));
    }

    private static Path fixtureDir() {
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.isDirectory(here.resolve("examples/recordings/redis-lost-write"))) {
            here = here.getParent();
        }
        if (here == null) {
            throw new IllegalStateException("examples/recordings/redis-lost-write not found above " + Path.of("").toAbsolutePath());
        }
        return here.resolve("examples/recordings/redis-lost-write");
    }
}
