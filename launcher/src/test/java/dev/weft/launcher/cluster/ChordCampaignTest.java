package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small version of examples/campaigns/chord-campaign.sh (the full one, 50 seeds per level, is in
 * docs/examples.md): two pinned seeds at every CHORD_FIX level, 7 nodes, judged by weft check chord. Seed
 * {@value #VIOLATING_SEED} leaves the 2001 protocol (level 0) with a ring that the quiescent tail cannot repair,
 * while level 2 repairs it; seed {@value #CLEAN_SEED} is OK at every level. The pacing makes a verdict a function
 * of the seed, so the pins hold run after run.
 */
class ChordCampaignTest {
    static final String NET = "latency=uniform:1000-60000";
    static final long VIOLATING_SEED = 3;
    static final long CLEAN_SEED = 0;

    @BeforeEach
    void ready() {
        ClusterFixture.assumeReady();
    }

    @Test
    void levelZeroViolatesWhereTheFixesRepair(@TempDir Path dir) {
        Map<Integer, Integer> violations = new TreeMap<>();
        for (int fix = 0; fix <= 2; fix++) {
            violations.put(fix, 0);
            for (long seed : new long[] {VIOLATING_SEED, CLEAN_SEED}) {
                Path log = dir.resolve("chord-fix" + fix + "-s" + seed + ".weftlog");
                var r = ClusterFixture.record(Map.of("CHORD_NNODES", "7", "CHORD_FIX", Integer.toString(fix)), seed,
                        NET, 7, log, "chord_node", "6", "45", "3");
                assertEquals(0, r.exit(), r.all());
                int verdict = ClusterFixture.chordVerdict(log, 6);
                if (verdict == 2) {
                    violations.merge(fix, 1, Integer::sum);
                }
                if (seed == CLEAN_SEED) {
                    assertEquals(0, verdict, "seed " + seed + " at level " + fix + ": "
                            + ClusterFixture.weft("check", "chord", log.toString(), "6").stdout());
                }
                if (seed == VIOLATING_SEED && (fix == 0 || fix == 2)) {
                    assertEquals(fix == 0 ? 2 : 0, verdict, "seed " + seed + " at level " + fix + ": "
                            + ClusterFixture.weft("check", "chord", log.toString(), "6").stdout());
                }
            }
        }
        assertTrue(violations.get(0) >= violations.get(1) && violations.get(1) >= violations.get(2),
                "violations by level: " + violations);
    }
}
