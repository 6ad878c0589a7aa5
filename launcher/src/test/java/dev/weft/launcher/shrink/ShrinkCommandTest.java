package dev.weft.launcher.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        ShrinkLiveTest.Ran r = ShrinkLiveTest.weft("shrink", "--config", config("").toString(), "--seed", "1", "--out",
                out.toString());
        assertEquals(1, r.code(), r.err());
        assertEquals("weft shrink: " + out + " holds notes.txt, which weft shrink did not write; use an empty or new"
                + " --out folder (a shrink's own outputs there are replaced)\n", r.err());
        assertEquals("my plan", Files.readString(out.resolve("plan.json")));
    }

    @Test
    void aMatrixOfSeveralCellsWantsOneNamed() throws Exception {
        Path cfg = config(", \"matrix\": {\"FIX\": [\"0\", \"1\"]}");
        ShrinkLiveTest.Ran r = ShrinkLiveTest.weft("shrink", "--config", cfg.toString(), "--seed", "1", "--out",
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
        ShrinkLiveTest.Ran r = ShrinkLiveTest.weft("shrink", "--seed", "1");
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
    void campaignShrinkOfAFolderThatIsNoCampaignIsOneLine() {
        ShrinkLiveTest.Ran r = ShrinkLiveTest.weft("campaign", "shrink", dir.toString());
        assertEquals(1, r.code());
        assertEquals("weft campaign shrink: " + dir + " is not a campaign folder (no campaign.json)\n", r.err());
    }
}
