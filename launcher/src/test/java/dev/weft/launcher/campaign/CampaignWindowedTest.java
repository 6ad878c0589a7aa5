package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Campaigns of a windowed target (the pingpong example under {@code --window 1000}, ~0.7 s a run): the same campaign
 * gives the same report bytes and the same kept recordings whether it runs in one process or as shards merged, and
 * each distinct violation is re-run live and reported confirmed — or not reproduced when its re-run differs. The
 * checker is an external command that reports every run as a violation naming the recording's size (so a hit
 * depends on the recording's bytes); the "not reproduced" case adds the checker's process id. About 11 runs.
 */
class CampaignWindowedTest {
    static final String SIZE_CHECKER = "\"checker_command\": [\"/bin/sh\", \"-c\","
            + " \"echo \\\"✗ recording of $(wc -c < \\\"$1\\\") bytes\\\"; exit 2\", \"sh\"]";

    @TempDir
    static Path dir;
    static Path single;

    /** The windowed pingpong campaign with the given checker member (skips the test unless the examples are built). */
    static String config(String checker) {
        return "{\"target\": [\"" + LiveTargets.example("pingpong") + "\"], \"nodes\": 2,"
                + " \"net\": \"latency=uniform:2000-10000\", \"window_ns\": 1000, " + checker + ", \"watchdog_secs\": 30,"
                + " \"shim\": \"" + LiveTargets.shim() + "\"}";
    }

    @BeforeAll
    static void singleProcess() throws IOException {
        Files.writeString(dir.resolve("pingpong.json"), config(SIZE_CHECKER));
        single = dir.resolve("single");
        assertEquals(2, CampaignRunsTest.campaign("--config", dir.resolve("pingpong.json").toString(), "--seeds", "1:3",
                "--jobs", "2", "--out", single.toString()));
    }

    @Test
    void theFirstHitIsConfirmedByAByteIdenticalLiveRerun() throws IOException {
        String json = Files.readString(single.resolve("report.json"));
        Matcher m = Pattern.compile("\"confirmation\": \"confirmed: byte-identical recording \\(sha256 ([0-9a-f]{64})\\)"
                + " and the same verdict\", \"identity\": \"recording of [0-9]+ bytes\"").matcher(json);
        assertTrue(m.find(), json);
        // the digest is the kept recording's
        assertEquals(m.group(1), Confirmation.sha256(single.resolve("runs/all/s1.weftlog")));
        assertTrue(json.contains("\"violation_seeds\": [1, 2, 3]"), json);
        assertTrue(json.contains("\"window_ns\": 1000"), json);
        assertTrue(json.contains("--window 1000"), "the rerun command is windowed: " + json);
        String md = Files.readString(single.resolve("report.md"));
        assertTrue(md.contains("Live re-run: confirmed: byte-identical recording"), md);
    }

    @Test
    void shardsMergedGiveTheSameReportAndTheSameRecordings() throws IOException {
        String cfg = dir.resolve("pingpong.json").toString();
        for (int k = 0; k < 2; k++) {
            CampaignRunsTest.campaign("--config", cfg, "--seeds", "1:3", "--shard", k + "/2", "--out",
                    dir.resolve("shard" + k).toString());
        }
        Path merged = dir.resolve("merged");
        CampaignRunsTest.campaign("merge", merged.toString(), dir.resolve("shard0").toString(),
                dir.resolve("shard1").toString());
        for (String f : List.of("report.json", "report.md", "violation-rates.svg", "regressions/all.json",
                "campaign.json")) {
            assertArrayEquals(Files.readAllBytes(single.resolve(f)), Files.readAllBytes(merged.resolve(f)), f);
        }
        // windowed runs of a seed are byte-identical, so the kept recordings are too
        try (Stream<Path> s = Files.list(single.resolve("runs/all"))) {
            List<Path> logs = s.filter(p -> p.toString().endsWith(".weftlog")).sorted().toList();
            assertEquals(3, logs.size());
            for (Path log : logs) {
                assertEquals(-1L, Files.mismatch(log, merged.resolve("runs/all").resolve(log.getFileName())), log.toString());
            }
        }
    }

    @Test
    void verifyReplaysEveryKeptRecordingAndNamesOneThatNoLongerMatches() throws IOException {
        java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
        java.io.PrintStream ps = new java.io.PrintStream(buf, true, java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, CampaignCommand.run(new String[] {"verify", single.toString()}, java.util.Map.of(), ps, ps),
                buf.toString());
        assertTrue(buf.toString().startsWith("verified 3 kept recording(s) in "), buf.toString());
        // a copy with one payload digit edited and one recording cut off: both are named (the sizes stay the checker's)
        Path copy = dir.resolve("tampered");
        for (String f : List.of("campaign.json", "runs/all/s1.result", "runs/all/s1.weftlog", "runs/all/s2.result",
                "runs/all/s2.weftlog", "runs/all/s3.result", "runs/all/s3.weftlog")) {
            Files.createDirectories(copy.resolve(f).getParent());
            Files.copy(single.resolve(f), copy.resolve(f));
        }
        Path edited = copy.resolve("runs/all/s2.weftlog");
        String log = Files.readString(edited);
        int at = log.indexOf("\"payload\":\"") + 11;
        Files.writeString(edited, log.substring(0, at) + (log.charAt(at) == '0' ? '1' : '0') + log.substring(at + 1));
        Path cut = copy.resolve("runs/all/s3.weftlog");
        String whole = Files.readString(cut);
        Files.writeString(cut, whole.substring(0, whole.lastIndexOf("{\"op\"")));
        buf.reset();
        assertEquals(1, CampaignCommand.run(new String[] {"verify", copy.toString()}, java.util.Map.of(), ps, ps));
        String[] lines = buf.toString().split("\n");
        assertTrue(lines[0].startsWith("runs/all/s2.weftlog: does not replay identical (exit "), buf.toString());
        assertEquals("runs/all/s3.weftlog: is cut off (no end record): only a prefix replays", lines[1]);
        assertTrue(lines[2].startsWith("2 of 3 kept recording(s) in "), buf.toString());
    }

    @Test
    void aHitWhoseRerunDiffersIsReportedNotReproduced() throws IOException {
        Path cfg = dir.resolve("nonce.json");
        Files.writeString(cfg, config("\"checker_command\": [\"/bin/sh\", \"-c\", \"echo \\\"✗ checker $$\\\"; exit 2\", \"sh\"]"));
        Path out = dir.resolve("nonce");
        assertEquals(2, CampaignRunsTest.campaign("--config", cfg.toString(), "--seeds", "5:1", "--out", out.toString()));
        String json = Files.readString(out.resolve("report.json"));
        assertTrue(Pattern.compile("\"confirmation\": \"not reproduced: the re-run's verdict is VIOLATION \\(checker"
                + " [0-9]+\\), not VIOLATION \\(checker [0-9]+\\)\"").matcher(json).find(), json);
    }
}
