package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small version of examples/campaigns/raft-campaign.sh (the full one is in docs/examples.md): on seed
 * {@value #VIOLATING_SEED}, RAFT_FIX=0 (votedFor forgotten at a crash-restart) elects two leaders in one term,
 * and RAFT_FIX=1 (votedFor kept) on the same seed does not; weft check raft gives the verdicts.
 */
@ExtendWith(ClusterFixture.Ready.class)
class RaftCampaignTest {
    static final String NET = "latency=uniform:2000-10000";
    static final long VIOLATING_SEED = 32;

    @Test
    void forgettingVotedForBreaksElectionSafetyAndKeepingItDoesNot(@TempDir Path dir) {
        assertEquals(2, verdict(dir, 0), "RAFT_FIX=0 on seed " + VIOLATING_SEED);
        assertEquals(0, verdict(dir, 1), "RAFT_FIX=1 on seed " + VIOLATING_SEED);
    }

    private static int verdict(Path dir, int fix) {
        Path log = dir.resolve("raft-fix" + fix + ".weftlog");
        var r = ClusterFixture.record(Map.of("RAFT_NNODES", "6", "RAFT_FIX", Integer.toString(fix)), VIOLATING_SEED,
                NET, 6, log, "raft_node", "40");
        assertEquals(0, r.exit(), r.all());
        return ClusterFixture.raftVerdict(log);
    }
}
