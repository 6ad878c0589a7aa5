package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compact keeps the first N hits of each class, lists the others with their rerun command, and the report stays. */
class CompactionTest {
    /** SHA-256 of a UTF-8 text, hex. */
    private static String sha256(String text) throws Exception {
        return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void keepsTheFirstHitsOfEachClassAndListsTheRest(@TempDir Path dir) throws Exception {
        CampaignConfig c = CampaignConfigTest.parse("{\"target\": [\"/bin/node\"], \"nodes\": 3, \"net\": \"\","
                + " \"matrix\": {\"FIX\": [\"0\", \"1\"]}, \"checker\": \"raft\", \"seed_count\": 4}");
        String canonical = c.canonicalJson();
        Files.writeString(dir.resolve(CampaignCommand.CONFIG_FILE), canonical);
        List<PlannedRun> plan = PlannedRun.plan(c, 0, 4);
        for (PlannedRun r : plan) {
            boolean hit = r.cell().get("FIX").equals("0");
            // seeds 0..2 of FIX=0 share a class (numbers differ); seed 3 is another class
            String identity = r.seed() == 3 ? "other thing" : "term " + r.seed() + ": leaders [1, 2]";
            Path stem = dir.resolve(r.stem());
            Files.createDirectories(stem.getParent());
            if (hit) {
                Files.writeString(Path.of(stem + ".weftlog"), "log " + r.seed());
            }
            new RunResult(hit ? "VIOLATION" : "OK", hit ? identity : "", hit).write(Path.of(stem + RunResult.SUFFIX));
        }
        new CampaignReport(c, plan, dir).write(dir);
        byte[] report = Files.readAllBytes(dir.resolve("report.json"));

        assertEquals(1, Compaction.compact(dir, 2));
        assertTrue(Files.exists(dir.resolve("runs/FIX=0/s0.weftlog")));
        assertTrue(Files.exists(dir.resolve("runs/FIX=0/s1.weftlog")));
        assertFalse(Files.exists(dir.resolve("runs/FIX=0/s2.weftlog")));
        assertTrue(Files.exists(dir.resolve("runs/FIX=0/s3.weftlog")), "the first of its own class");
        assertEquals("FIX=0\t2\tFIX=0 weft run --seed 2 --net '' --nodes 3 --record rerun-s2.weftlog --watchdog 30 --"
                + " /bin/node\tsha256:" + sha256("log 2"),
                Files.readString(dir.resolve(Compaction.FILE)).strip());
        assertFalse(RunResult.read(dir.resolve("runs/FIX=0/s2" + RunResult.SUFFIX)).kept());
        new CampaignReport(c, plan, dir).write(dir);
        assertArrayEquals(report, Files.readAllBytes(dir.resolve("report.json")), "the report cites kept recordings only");
        assertEquals(0, Compaction.compact(dir, 2), "compacting again changes nothing");
    }
}
