package dev.weft.launcher.campaign;

import static dev.weft.launcher.campaign.CampaignRunsTest.campaign;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A campaign with {@code "checker": "history:register"} over kvreplica (seeds 0..7): the runs' collected histories
 * are judged, the stale reads bucketed into one class with the numbers masked, each kept recording keeps its history
 * beside it (so the replay command and {@code campaign verify} re-judge it), and two merged shards carry them too.
 */
class HistoryCampaignTest {

    @TempDir
    Path dir;

    @Test
    void staleReadsAreOneHistoryViolationClassAndKeepTheirHistories() throws IOException {
        Path config = dir.resolve("kv.json");
        Files.writeString(config, LiveTargets.config("kvreplica", 1, "latency=uniform:1000-50000",
                "\"checker\": \"history:register\""));
        Path single = dir.resolve("single");
        assertEquals(2, campaign("--config", config.toString(), "--seeds", "0:8", "--jobs", "2", "--out",
                single.toString()));
        String json = Files.readString(single.resolve("report.json"));
        assertTrue(json.contains("\"violation_seeds\": [0, 1, 2, 3, 4, 5, 7]"), json);
        String md = Files.readString(single.resolve("report.md"));
        assertTrue(md.contains("### the object: write # acknowledged at t=# ns, then a read invoked at t=# ns returned #"
                + " (not linearizable)\n\n7 hit(s); first: all seed 0\n"), md);
        assertTrue(md.contains("weft replay runs/all/s0.weftlog && weft check history runs/all/s0.history.jsonl"
                + " --model register\n"), md);
        try (Stream<Path> s = Files.walk(single.resolve("runs"))) {
            List<String> histories = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".history.jsonl"))
                    .sorted().toList();
            assertEquals(List.of("s0.history.jsonl", "s1.history.jsonl", "s2.history.jsonl", "s3.history.jsonl",
                    "s4.history.jsonl", "s5.history.jsonl", "s7.history.jsonl"), histories);
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int verified = CampaignCommand.run(new String[] {"verify", single.toString()}, Map.of(),
                new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        assertEquals(0, verified, buf.toString(StandardCharsets.UTF_8));

        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        campaign("--config", config.toString(), "--seeds", "0:8", "--shard", "0/2", "--out", a.toString());
        campaign("--config", config.toString(), "--seeds", "0:8", "--shard", "1/2", "--out", b.toString());
        Path merged = dir.resolve("merged");
        assertEquals(2, campaign("merge", merged.toString(), a.toString(), b.toString()));
        assertArrayEquals(Files.readAllBytes(single.resolve("report.json")), Files.readAllBytes(merged.resolve("report.json")));
        assertArrayEquals(Files.readAllBytes(single.resolve("runs/all/s3.history.jsonl")),
                Files.readAllBytes(merged.resolve("runs/all/s3.history.jsonl")));
    }
}
