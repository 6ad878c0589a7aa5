package dev.weft.launcher.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.testcorpus.OwnCorpus;
import dev.weft.testsupport.CapturedRun;
import dev.weft.testsupport.NativeBuild;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Live shrinks of the windowed pingpong example (a run takes about a second): the two nodes on a lossy net, and a
 * checker (an external command) that reports a violation when at least two datagrams were lost. The client tries
 * four times, a few polls apart, so a run that gives up is short. Seed 4's run loses four datagrams, so its plan has
 * five deviations and exactly two drops are needed: the shrink must end at two drops, each needed (1-minimal), with
 * the minimal run's recording and its plan. A seed on a lossless net does not fail, and a kept hit whose recording
 * no longer fails under its own plan is reported as not reproduced — neither as a pass. About 15 runs.
 */
class ShrinkLiveTest {
    static final String TWO_LOST = "\"checker_command\": [\"/bin/sh\", \"-c\", \"if [ $(grep -c '\\\"kind\\\":\\\"dropped\\\"'"
            + " \\\"$1\\\") -ge 2 ]; then echo '✗ at least two datagrams lost'; exit 2; fi\", \"sh\"]";

    @TempDir
    static Path dir;

    static Path config(String name, String net) throws IOException {
        Path built = NativeBuild.root().resolve("shim-native/target");
        Path f = dir.resolve(name);
        Files.writeString(f, "{\"target\": [\"" + built.resolve("examples/pingpong") + "\"], \"nodes\": 2,"
                + " \"net\": \"" + net + "\", \"window_ns\": 1000, " + TWO_LOST + ", \"watchdog_secs\": 30,"
                + " \"env\": {\"PINGPONG_TRIES\": \"4\", \"PINGPONG_WAIT\": \"5\"}, \"shim\": \"" + built.resolve("libweft_shim.so") + "\"}");
        return f;
    }

    /** weft ARGS in this JVM, its output captured. */
    static CapturedRun weft(String... args) {
        return CapturedRun.of((out, err) -> WeftCli.run(args, out, err));
    }

    @BeforeAll
    static void builtExamples() {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "skipped: live runs need Linux");
        assumeTrue(Files.isExecutable(NativeBuild.root().resolve("shim-native/target/examples/pingpong")),
                "skipped: the examples were not built");
    }

    @Test
    void shrinksFiveDeviationsToTheTwoDropsThatAreNeeded() throws Exception {
        Path cfg = config("lossy.json", "latency=uniform:2000-10000,loss=0.5");
        Path out = dir.resolve("out");
        CapturedRun r = weft("shrink", "--config", cfg.toString(), "--seed", "4", "--jobs", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        FaultPlan original = FaultPlanJson.parse(Files.readAllBytes(out.resolve("original-plan.json")));
        assertEquals(5, original.deviations().size(), "seed 4's plan");
        FaultPlan minimal = FaultPlanJson.parse(Files.readAllBytes(out.resolve("plan.json")));
        List<FaultPlan.Deviation> kept = minimal.deviations();
        assertEquals(2, kept.size(), Files.readString(out.resolve("plan.json")));
        assertTrue(kept.stream().allMatch(d -> d.fate().dropped()), "only drops are needed: " + kept);
        assertTrue(original.deviations().containsAll(kept), "deviations of the original plan");

        String report = Files.readString(out.resolve("report.txt"));
        assertTrue(report.contains("\nresult: shrunk\n"), report);
        assertTrue(report.contains("\nplan: 2 deviation(s) of 5\n"), report);
        assertTrue(report.contains("\ninvariant: at least two datagrams lost\n"), report);
        assertTrue(report.contains("checked by 2 fresh run(s)"), report);
        assertTrue(report.contains(" --plan " + out.resolve("plan.json") + " "), report);
        // progress lines the workbench parses, one per run, ending at the minimal size
        List<String> progress = r.err().lines().filter(l -> l.startsWith("shrink: run ")).toList();
        assertFalse(progress.isEmpty(), r.err());
        assertTrue(progress.get(progress.size() - 1).endsWith(", 2 deviation(s) of 5"), progress.toString());
        assertTrue(report.contains("\nruns: " + (progress.size() + 1) + " "), "the first recording counts too: "
                + report + progress);

        // the minimal recording carries its plan beside it and replays against it
        Path log = out.resolve("minimal.weftlog");
        assertEquals(-1L, Files.mismatch(out.resolve("plan.json"), Path.of(log + ".plan.json")));
        CapturedRun replay = weft("replay", log.toString());
        assertEquals(0, replay.code(), replay.out() + replay.err());
        assertTrue(replay.out().contains("replay identical"), replay.out());
        assertEquals(2, countDrops(log));
        assertFalse(Files.exists(out.resolve(ShrinkOutputs.TMP)), "candidates' folder removed");
    }

    @Test
    void ctrlCKeepsTheBestPlanSoFarWritesItAndSaysSo() throws Exception {
        Path cfg = config("interrupted.json", "latency=uniform:2000-10000,loss=0.5");
        Path out = dir.resolve("interrupted");
        Path err = dir.resolve("interrupted.err");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.weft.launcher.WeftMain",
                "shrink", "--config", cfg.toString(), "--seed", "4", "--jobs", "1", "--out", out.toString())
                .redirectError(err.toFile()).redirectOutput(dir.resolve("interrupted.out").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            // run 3 is the first candidate of the shrink (run 1 recorded the seed, run 2 checked the whole plan)
            while (!Files.readString(err).contains("shrink: run 3, ") && System.nanoTime() < deadline && p.isAlive()) {
                Thread.sleep(50);
            }
            assertTrue(p.isAlive(), "the shrink ended before it could be interrupted: " + Files.readString(err));
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the shrink did not stop on SIGINT");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(130, p.exitValue());
        String report = Files.readString(out.resolve("report.txt"));
        assertTrue(report.contains("\nresult: interrupted (Ctrl-C): plan.json is the smallest failing plan found so far\n"),
                report);
        assertTrue(report.contains("\n1-minimal: not checked (interrupted)\n"), report);
        int size = FaultPlanJson.parse(Files.readAllBytes(out.resolve("plan.json"))).deviations().size();
        assertTrue(report.contains("\nplan: " + size + " deviation(s) of 5\n"), report);
        assertEquals(-1L, Files.mismatch(out.resolve("plan.json"), out.resolve("minimal.weftlog.plan.json")));
        assertTrue(countDrops(out.resolve("minimal.weftlog")) >= 2, "the kept recording shows the finding");
        assertTrue(Files.readString(err).contains("weft shrink: interrupted; kept the best plan so far, " + size
                + " deviation(s) of 5 (not checked 1-minimal): "), Files.readString(err));
        assertFalse(Files.exists(out.resolve(ShrinkOutputs.TMP)), "candidates' folder removed");
    }

    static long countDrops(Path log) throws IOException {
        try (var lines = Files.lines(log)) {
            return lines.filter(l -> l.contains("\"kind\":\"dropped\"")).count();
        }
    }

    @Test
    void aScenarioCampaignsSeedShrinksToo() throws Exception {
        // the same two nodes and checker, as a scenario campaign: each run is weft run --seed N --plan P SCENARIO
        Path built = NativeBuild.root().resolve("shim-native/target");
        String pingpong = built.resolve("examples/pingpong").toString();
        Path scenario = dir.resolve("pp-scenario.json");
        Files.writeString(scenario, "{\"name\": \"pingpong\", \"seed\": 99, \"nodes\": [{\"node_id\": 0, \"program\": \""
                + pingpong + "\", \"args\": []}, {\"node_id\": 1, \"program\": \"" + pingpong + "\", \"args\": []}],"
                + " \"network\": {\"latency\": \"uniform:2000-10000\", \"loss\": 0.5}, \"events\": []}");
        Path cfg = dir.resolve("scenario-campaign.json");
        Files.writeString(cfg, "{\"scenario\": \"pp-scenario.json\", \"window_ns\": 1000, " + TWO_LOST
                + ", \"watchdog_secs\": 30, \"env\": {\"PINGPONG_TRIES\": \"4\", \"PINGPONG_WAIT\": \"5\"},"
                + " \"shim\": \"" + built.resolve("libweft_shim.so") + "\"}");
        Path out = dir.resolve("scenario-out");
        CapturedRun r = weft("shrink", "--config", cfg.toString(), "--seed", "4", "--jobs", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String report = Files.readString(out.resolve("report.txt"));
        assertTrue(report.contains("\nplan: 2 deviation(s) of 5\n"), report);
        assertTrue(report.contains(" --plan " + out.resolve("plan.json") + " ") && report.contains(" " + scenario + "\n"),
                "the rerun command runs the scenario under the plan: " + report);
        assertTrue(FaultPlanJson.parse(Files.readAllBytes(out.resolve("plan.json"))).deviations().stream()
                .allMatch(d -> d.fate().dropped()));
    }

    @Test
    void aSeedThatDoesNotFailIsReportedAsSuchWithItsOwnExitStatus() throws Exception {
        Path cfg = config("lossless.json", "latency=uniform:2000-10000");
        Path out = dir.resolve("no-failure");
        CapturedRun r = weft("shrink", "--config", cfg.toString(), "--seed", "2", "--out", out.toString());
        assertEquals(3, r.code(), r.err());
        String report = Files.readString(out.resolve("report.txt"));
        assertTrue(report.contains("\nresult: does not fail: seed 2 of all gave OK, so there is nothing to shrink\n"),
                report);
        assertFalse(Files.exists(out.resolve("plan.json")));
        assertTrue(r.err().contains("weft shrink: does not fail: seed 2"), r.err());
    }

    @Test
    void aHitThatNoLongerFailsUnderItsOwnPlanIsReportedAsNotReproduced() throws Exception {
        // a campaign folder whose kept hit is a corpus recording of pingpong that lost nothing: its plan names no
        // drop, so the run under it cannot lose two datagrams — as if the program had changed since the campaign ran
        Path cfg = config("campaign.json", "latency=uniform:1000-50000,loss=0.5");
        Path campaign = dir.resolve("campaign");
        Files.createDirectories(campaign.resolve("runs/all"));
        Files.copy(cfg, campaign.resolve("campaign.json"));
        Files.writeString(campaign.resolve("runs/all/s1.result"),
                "verdict VIOLATION\nkept 1\nidentity at least two datagrams lost\n");
        Files.copy(OwnCorpus.dir().resolve("pingpong/pp-window1000-s1.weftlog"), campaign.resolve("runs/all/s1.weftlog"));
        CapturedRun r = weft("campaign", "shrink", campaign.toString(), "--jobs", "1");
        assertEquals(4, r.code(), r.err());
        String report = Files.readString(campaign.resolve("shrunk/all/s1/report.txt"));
        assertTrue(report.contains("\nresult: does not reproduce: under its own plan ("), report);
        assertTrue(report.contains("the run gave OK, not the original finding"), report);
        String md = Files.readString(campaign.resolve("shrunk/report.md"));
        assertTrue(md.contains("## VIOLATION at least two datagrams lost\n\nall seed 1: does not reproduce"), md);
        assertFalse(Files.exists(campaign.resolve("shrunk/all/s1/plan.json")));
    }
}
