package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.LogReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign over a scenario ({@code "scenario"} instead of target, nodes and net): every run is the scenario under
 * the run's seed ({@code weft run --seed N SCENARIO}), so its nodes, programs, net and events come from the scenario
 * and only the seed changes.
 */
class ScenarioCampaignTest {

    @TempDir
    Path dir;

    private record Out(int exit, String text) {
    }

    private static Out campaign(String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int code = CampaignCommand.run(args, Map.of(), ps, ps);
        return new Out(code, buf.toString(StandardCharsets.UTF_8));
    }

    /** A two-node pingpong scenario (pp.json, its own seed {@code scenarioSeed}) and a campaign config over it (c.json). */
    private Path pingpongScenarioCampaign(long scenarioSeed) throws Exception {
        String pingpong = LiveTargets.example("pingpong").toString();
        Files.writeString(dir.resolve("pp.json"), """
                {"name": "pingpong", "seed": %d,
                 "nodes": [{"node_id": 0, "program": "%s", "args": []},
                           {"node_id": 1, "program": "%s", "args": []}],
                 "network": {"latency": "uniform:1000-50000"},
                 "events": []}
                """.formatted(scenarioSeed, pingpong, pingpong));
        Path config = dir.resolve("c.json");
        Files.writeString(config, "{\"scenario\": \"pp.json\", \"checker\": \"fifo,dup\", \"keep_pass_permille\": 1000,"
                + " \"watchdog_secs\": 30, \"shim\": \"" + LiveTargets.shim() + "\"}");
        return config;
    }

    /** Runs the pingpong scenario campaign (scenario seed scenarioSeed) over seeds into dir/out; it must exit 0. */
    private Path ranPingpongScenarioCampaign(long scenarioSeed, String seeds) throws Exception {
        Path config = pingpongScenarioCampaign(scenarioSeed);
        Path out = dir.resolve("out");
        Out o = campaign("--config", config.toString(), "--seeds", seeds, "--jobs", "1", "--out", out.toString());
        assertEquals(0, o.exit(), o.text());
        return out;
    }

    @Test
    void everyRunIsTheScenarioUnderItsOwnSeed() throws Exception {
        Path out = ranPingpongScenarioCampaign(99, "3:2");
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("Scenario `" + dir.resolve("pp.json") + "` on 2 nodes, net `latency=uniform:1000-50000`"),
                md);
        for (long seed : new long[] {3, 4}) {
            try (LogReader r = LogReader.open(out.resolve("runs/all/s" + seed + ".weftlog"))) {
                assertEquals(seed, r.header().seed(), "the run's seed replaces the scenario's 99");
            }
        }
        String json = Files.readString(out.resolve("campaign.json"));
        assertTrue(json.contains("\"scenario\": \"" + dir.resolve("pp.json") + "\""), json);
    }

    /**
     * The folder of a scenario campaign reads back: its campaign.json (scenario, the nodes and net it ran with, an
     * empty target) is accepted by verify, merge and compact, without the scenario file (moved away here).
     */
    @Test
    void verifyMergeAndCompactReadAScenarioCampaignsFolder() throws Exception {
        Path out = ranPingpongScenarioCampaign(1, "5:2");
        assertTrue(Files.readString(out.resolve("campaign.json")).contains("\"target\": []"), "as written");
        Files.move(dir.resolve("pp.json"), dir.resolve("moved.json"));

        Out o = campaign("verify", out.toString());
        assertEquals(0, o.exit(), o.text());
        assertEquals("verified 2 kept recording(s) in " + out + ": each replays identical and gets its reported verdict\n",
                o.text());
        Path merged = dir.resolve("merged");
        o = campaign("merge", merged.toString(), out.toString());
        assertEquals(0, o.exit(), o.text());
        assertEquals(Files.readString(out.resolve("campaign.json")), Files.readString(merged.resolve("campaign.json")));
        o = campaign("compact", merged.toString());
        assertEquals(0, o.exit(), o.text());
        assertTrue(o.text().startsWith("compacted " + merged + ": 0 recording(s)"), o.text());
    }

    @Test
    void aScenarioLeavesOutTargetNodesAndNet() throws Exception {
        Files.writeString(dir.resolve("c.json"), "{\"scenario\": \"pp.json\", \"nodes\": 2, \"checker\": \"fifo\"}");
        Out o = campaign("--config", dir.resolve("c.json").toString(), "--out", dir.resolve("o").toString());
        assertEquals(1, o.exit());
        assertEquals("weft campaign: " + dir.resolve("c.json") + ": `scenario` names the programs, the nodes and the net:"
                + " leave out `nodes`\n", o.text());
        Files.writeString(dir.resolve("c.json"), "{\"scenario\": \"missing.json\", \"checker\": \"fifo\"}");
        o = campaign("--config", dir.resolve("c.json").toString(), "--out", dir.resolve("o").toString());
        assertEquals(1, o.exit());
        assertTrue(o.text().startsWith("weft campaign: " + dir.resolve("c.json") + ": scenario "
                + dir.resolve("missing.json") + ": "), o.text());
        assertEquals(1, o.text().split("\n").length, o.text());
    }
}
