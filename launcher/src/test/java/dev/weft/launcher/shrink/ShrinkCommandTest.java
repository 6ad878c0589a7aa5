package dev.weft.launcher.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.CapturedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** weft shrink's user mistakes, before any run: one line each, exit 1, nothing of the user's touched. */
class ShrinkCommandTest {
    @TempDir
    Path dir;

    Path config(String matrix) throws Exception {
        Path f = dir.resolve("c.json");
        Files.writeString(f, "{\"target\": [\"/bin/true\"], \"nodes\": 2, \"net\": \"latency=uniform:1000-5000\","
                + " \"checker\": \"fifo\"" + matrix + "}");
        return f;
    }

    @Test
    void aFolderHoldingTheUsersFilesIsRefusedAndLeftAlone() throws Exception {
        Path out = dir.resolve("mine");
        Files.createDirectories(out);
        Files.writeString(out.resolve("notes.txt"), "mine");
        Files.writeString(out.resolve("plan.json"), "my plan");
        CapturedRun r = ShrinkLiveTest.weft("shrink", "--config", config("").toString(), "--seed", "1", "--out",
                out.toString());
        assertEquals(1, r.code(), r.err());
        assertEquals("weft shrink: " + out + " holds notes.txt, which weft shrink did not write; use an empty or new"
                + " --out folder (a shrink's own outputs there are replaced)\n", r.err());
        assertEquals("my plan", Files.readString(out.resolve("plan.json")));
    }

    @Test
    void aMatrixOfSeveralCellsWantsOneNamed() throws Exception {
        Path cfg = config(", \"matrix\": {\"FIX\": [\"0\", \"1\"]}");
        CapturedRun r = ShrinkLiveTest.weft("shrink", "--config", cfg.toString(), "--seed", "1", "--out",
                dir.resolve("o").toString());
        assertEquals(1, r.code());
        assertEquals("weft shrink: the config's matrix has 2 cells matching; name one with --cell K=V (FIX=0 | FIX=1)\n",
                r.err());
        r = ShrinkLiveTest.weft("shrink", "--config", cfg.toString(), "--seed", "1", "--cell", "FIX=7", "--out",
                dir.resolve("o").toString());
        assertEquals("weft shrink: --cell FIX=7: not one of its values (0, 1)\n", r.err());
        r = ShrinkLiveTest.weft("shrink", "--config", cfg.toString(), "--seed", "1", "--cell", "FOX=1", "--out",
                dir.resolve("o").toString());
        assertEquals("weft shrink: --cell FOX=1: FOX is not a variable of the config's matrix (FIX)\n", r.err());
        assertTrue(!Files.exists(dir.resolve("o")), "no output folder for a refused command line");
    }

    @Test
    void missingOptionsAndABadConfigAreOneLine() throws Exception {
        CapturedRun r = ShrinkLiveTest.weft("shrink", "--seed", "1");
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("weft shrink: --config FILE, --seed N and --out DIR are required\nUsage: weft shrink "),
                r.err());
        Path bad = dir.resolve("bad.json");
        Files.writeString(bad, "{\"nodes\": 2, \"colour\": 1}");
        r = ShrinkLiveTest.weft("shrink", "--config", bad.toString(), "--seed", "1", "--out", dir.resolve("o").toString());
        assertEquals(1, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("weft shrink: " + bad + ": "), r.err());
    }

    @Test
    void campaignShrinkSkipsAHitAlreadyShrunkAndListsItsPlan() throws Exception {
        // a campaign folder whose one hit was shrunk by an earlier (interrupted, then resumed) campaign shrink: no run
        // is made (the target does not even exist), and report.md shows the hit's plan and rerun command
        Path campaign = dir.resolve("campaign");
        Files.createDirectories(campaign.resolve("runs/FIX=0"));
        Files.writeString(campaign.resolve("campaign.json"), "{\"target\": [\"/nonexistent/node\"], \"nodes\": 2,"
                + " \"net\": \"latency=uniform:1000-5000\", \"window_ns\": 1000, \"checker\": \"raft\","
                + " \"matrix\": {\"FIX\": [\"0\", \"1\"]}, \"seed_count\": 3}");
        Files.writeString(campaign.resolve("runs/FIX=0/s0.result"), "verdict OK\nkept 0\nidentity \n");
        Files.writeString(campaign.resolve("runs/FIX=0/s1.result"),
                "verdict VIOLATION\nkept 0\nidentity term 2: leaders [0, 1] (second leader at op 77)\n");
        Files.writeString(campaign.resolve("runs/FIX=0/s2.result"),
                "verdict VIOLATION\nkept 0\nidentity term 3: leaders [1, 0] (second leader at op 99)\n");
        Path hit = campaign.resolve("shrunk/FIX=0/s1");
        Files.createDirectories(hit);
        String plan = "{\"format\":\"weft-plan\",\"version\":1,\"net\":\"latency=uniform:1000-5000\",\"datagrams\":[\n"
                + "{\"src\":\"127.0.0.1:9001\",\"dst\":\"127.0.0.2:9001\",\"chan_seq\":4,\"drop\":true}\n]}\n";
        Files.writeString(hit.resolve("plan.json"), plan);
        Files.writeString(hit.resolve("report.txt"), "weft shrink report\nresult: shrunk\nplan: 1 deviation(s) of 40\n"
                + "rerun: FIX=0 weft run --seed 1 … --plan shrunk/FIX=0/s1/plan.json\ncheck: weft check raft x\n");
        CapturedRun r = ShrinkLiveTest.weft("campaign", "shrink", campaign.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("weft campaign shrink: 1 distinct hit(s) in "), "seed 2 is the same class: " + r.err());
        assertTrue(r.err().contains("FIX=0 seed 1: already shrunk (1 deviation(s) of 40)"), r.err());
        String md = Files.readString(campaign.resolve("shrunk/report.md"));
        assertTrue(md.contains("## VIOLATION term #: leaders [#, #] (second leader at op #)\n\nFIX=0 seed 1: **1"
                + " deviation(s) of 40**, 1-minimal\n"), md);
        assertTrue(md.contains("```json\n" + plan + "```\n"), md);
        assertTrue(md.contains("FIX=0 weft run --seed 1 … --plan shrunk/FIX=0/s1/plan.json\nweft check raft x\n"), md);
    }

    @Test
    void campaignShrinkOfAFolderThatIsNoCampaignIsOneLine() {
        CapturedRun r = ShrinkLiveTest.weft("campaign", "shrink", dir.toString());
        assertEquals(1, r.code());
        assertEquals("weft campaign shrink: " + dir + " is not a campaign folder (no campaign.json)\n", r.err());
    }
}
