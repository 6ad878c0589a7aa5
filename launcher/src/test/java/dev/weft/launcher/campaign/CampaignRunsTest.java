package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.json.JsonTokenizer;
import dev.weft.launcher.WeftCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real campaigns of the Raft example (RAFT_FIX 0/1 × seeds 31..33; seed 32 elects two leaders without the fix):
 * one process, four shards merged, and a run stopped by SIGINT and resumed all give the same report bytes; the
 * kept recordings replay identical and their checker verdict is the report's. About 25 runs of ~1 s each.
 */
class CampaignRunsTest {
    static final String SEEDS = "31:3";
    static final List<String> REPORT_FILES = List.of("report.json", "report.md", "violation-rates.svg",
            "regressions/RAFT_FIX=0.json", "regressions/RAFT_FIX=1.json", "campaign.json");

    @TempDir
    static Path dir;
    static Path config;
    static Path single;

    @BeforeAll
    static void singleProcess() throws IOException {
        Path raft = LiveTargets.example("raft_node");
        config = dir.resolve("raft.json");
        Files.writeString(config, "{\"target\": [\"" + raft + "\", \"40\"],"
                + " \"nodes\": 6, \"net\": \"latency=uniform:2000-10000\", \"env\": {\"RAFT_NNODES\": \"6\"},"
                + " \"matrix\": {\"RAFT_FIX\": [\"0\", \"1\"]}, \"checker\": \"raft\", \"watchdog_secs\": 30,"
                + " \"shim\": \"" + LiveTargets.shim() + "\"}");
        single = dir.resolve("single");
        assertEquals(2, campaign("--config", config.toString(), "--seeds", SEEDS, "--jobs", "2", "--out",
                single.toString()), "one violation expected");
    }

    static int campaign(String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int code = CampaignCommand.run(args, Map.of(), ps, ps);
        if (code != 0 && code != 2) {
            throw new AssertionError("weft campaign " + String.join(" ", args) + " exited " + code + ":\n" + buf);
        }
        return code;
    }

    @Test
    void theSingleReportFindsElectionSafetyOnlyWithoutTheFix() throws IOException {
        String json = Files.readString(single.resolve("report.json"));
        assertTrue(json.contains("\"cell\": \"RAFT_FIX=0\", \"deadlock_seeds\": [], \"discard_seeds\": [], \"done\": 3, \"error_seeds\": [],"
                + " \"planned\": 3, \"violation_seeds\": [32]"), json);
        assertTrue(json.contains("\"cell\": \"RAFT_FIX=1\", \"deadlock_seeds\": [], \"discard_seeds\": [], \"done\": 3, \"error_seeds\": [],"
                + " \"planned\": 3, \"violation_seeds\": []"), json);
        assertTrue(json.contains("\"complete\": true"), json);
        assertEquals("[32]\n", Files.readString(single.resolve("regressions/RAFT_FIX=0.json")));
        // only the hit's recording is kept
        try (Stream<Path> s = Files.walk(single.resolve("runs"))) {
            assertEquals(List.of("s32.weftlog"), s.filter(p -> p.toString().endsWith(".weftlog"))
                    .map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void fourShardsMergedGiveTheSameBytes() throws IOException {
        List<String> shards = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            Path out = dir.resolve("shard" + k);
            campaign("--config", config.toString(), "--seeds", SEEDS, "--shard", k + "/4", "--out", out.toString());
            shards.add(out.toString());
            assertTrue(Files.readString(out.resolve("report.json")).contains("\"complete\": false"));
        }
        Path merged = dir.resolve("merged");
        List<String> args = new ArrayList<>(List.of("merge", merged.toString()));
        args.addAll(shards);
        assertEquals(2, campaign(args.toArray(String[]::new)));
        assertSameReport(single, merged);
    }

    @Test
    void sigintLeavesAValidPartialReportAndResumeFinishesIt() throws Exception {
        Path out = dir.resolve("interrupted");
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.weft.launcher.WeftMain",
                "campaign", "--config", config.toString(), "--seeds", SEEDS, "--out", out.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("interrupted.txt").toFile()).start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (results(out) < 2 && System.nanoTime() < deadline && p.isAlive()) {
                Thread.sleep(50);
            }
            assertTrue(p.isAlive(), "the campaign ended before it could be interrupted");
            new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the campaign did not stop on SIGINT");
        } finally {
            p.destroyForcibly();
        }
        String partial = Files.readString(out.resolve("report.json"));
        assertTrue(partial.contains("\"complete\": false"), partial);
        JsonTokenizer t = new JsonTokenizer(partial.getBytes(StandardCharsets.UTF_8));
        while (t.nextToken() != null) {
            // a syntax error would throw
        }
        long before = results(out);
        assertTrue(before >= 2 && before < 6, "results after SIGINT: " + before);
        campaign("--config", config.toString(), "--seeds", SEEDS, "--out", out.toString());
        assertSameReport(single, out);
    }

    @Test
    void keptRecordingsReplayIdenticalWithTheReportedVerdict() {
        Path log = single.resolve("runs/RAFT_FIX=0/s32.weftlog");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
        assertEquals(0, WeftCommand.REPLAY.run(new String[] {log.toString()}, ps, ps), buf.toString());
        assertTrue(buf.toString().contains("replay identical"), buf.toString());
        assertEquals(2, WeftCommand.CHECK.run(new String[] {"raft", log.toString()}, ps, ps), "VIOLATION in the report");
    }

    private static long results(Path out) throws IOException {
        if (!Files.isDirectory(out.resolve("runs"))) {
            return 0;
        }
        try (Stream<Path> s = Files.walk(out.resolve("runs"))) {
            return s.filter(f -> f.toString().endsWith(RunResult.SUFFIX)).count();
        }
    }

    private static void assertSameReport(Path expected, Path actual) throws IOException {
        for (String f : REPORT_FILES) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(f)), Files.readAllBytes(actual.resolve(f)),
                    f + " differs:\n" + Files.readString(actual.resolve(f)));
        }
        assertTrue(Files.isRegularFile(actual.resolve("runs/RAFT_FIX=0/s32.weftlog")), "the hit's recording");
    }
}
