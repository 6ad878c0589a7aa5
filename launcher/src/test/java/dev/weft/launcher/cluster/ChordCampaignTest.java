package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small version of examples/campaigns/chord-campaign.sh (the full one, 50 seeds per level, is in
 * docs/examples.md): pinned seeds, 7 nodes, judged by weft check chord. Seed {@value #VIOLATING_SEED} leaves the
 * 2001 protocol (level 0) with a ring that the quiescent tail cannot repair, while levels 1 and 2 repair it (the
 * campaign's ordering 0 >= 1 >= 2 in miniature); seed {@value #CLEAN_SEED} is OK at level 0. The pacing makes a
 * verdict a function of the seed, so the pins hold run after run.
 */
@ExtendWith(ClusterFixture.Ready.class)
class ChordCampaignTest {
    static final String NET = "latency=uniform:1000-60000";
    static final long VIOLATING_SEED = 3;
    static final long CLEAN_SEED = 0;

    @Test
    void levelZeroViolatesWhereTheFixesRepair(@TempDir Path dir) {
        Map<Integer, Integer> verdicts = new TreeMap<>();
        for (int fix = 0; fix <= 2; fix++) {
            verdicts.put(fix, verdict(dir, VIOLATING_SEED, fix));
        }
        assertEquals(Map.of(0, 2, 1, 0, 2, 0), verdicts, "seed " + VIOLATING_SEED + ": verdict (exit status) by level");
        assertEquals(0, verdict(dir, CLEAN_SEED, 0), "seed " + CLEAN_SEED + " at level 0");
    }

    private static int verdict(Path dir, long seed, int fix) {
        Path log = dir.resolve("chord-fix" + fix + "-s" + seed + ".weftlog");
        var r = ClusterFixture.record(Map.of("CHORD_NNODES", "7", "CHORD_FIX", Integer.toString(fix)), seed, NET, 7,
                log, "chord_node", "6", "45", "3");
        assertEquals(0, r.exit(), r.all());
        return ClusterFixture.chordVerdict(log, 6);
    }
}
