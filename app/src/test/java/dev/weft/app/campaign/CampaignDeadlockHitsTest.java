package dev.weft.app.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs a campaign put in the DEADLOCK bucket are listed with their verdict and kept recording. */
class CampaignDeadlockHitsTest {
    @TempDir
    Path dir;

    @Test
    void deadlockSeedsAreHits() throws Exception {
        Path f = CampaignFixture.create(dir.resolve("c"));
        String report = Files.readString(f.resolve("report.json"));
        Files.writeString(f.resolve("report.json"), report.replace("\"cell\": \"CHORD_FIX=1\", \"discard_seeds\": [],",
                "\"cell\": \"CHORD_FIX=1\", \"deadlock_seeds\": [4], \"discard_seeds\": [],"));
        Path runs = f.resolve("runs/CHORD_FIX=1");
        Files.writeString(runs.resolve("s4.result"), "verdict DEADLOCK\nkept 1\nidentity deadlock: node 6 waits in recv"
                + " on 127.0.0.7:9000\n", StandardCharsets.UTF_8);
        Files.copy(f.resolve("runs/CHORD_FIX=1/s0.weftlog"), runs.resolve("s4.weftlog"));
        List<CampaignResults.Hit> dead = CampaignResults.read(f).hits().stream()
                .filter(h -> h.verdict().equals("DEADLOCK")).toList();
        assertEquals(1, dead.size());
        assertEquals(4, dead.get(0).seed());
        assertEquals("deadlock: node 6 waits in recv on 127.0.0.7:9000", dead.get(0).identity());
        assertEquals(runs.resolve("s4.weftlog"), dead.get(0).recording());
    }
}
