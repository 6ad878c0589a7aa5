package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pipelined checking (issue 24 item 4): with one job, the second run starts while the first one's recording is still
 * being checked. The checker of run 0 waits (up to 20 s) for run 1's recording to appear in the campaign's tmp
 * folder and reports a violation if it never does, which is what happened when each job checked its own run before
 * starting the next.
 */
class CampaignPipelineTest {
    static final String WAITING_CHECKER = "\"checker_command\": [\"/bin/sh\", \"-c\", \"case \\\"$1\\\" in"
            + " */run0.weftlog) for i in $(seq 200); do [ -e \\\"${1%run0.weftlog}run1.weftlog\\\" ] && exit 0;"
            + " sleep 0.1; done; echo \\\"✗ run 1 did not start while run 0 was checked\\\"; exit 2;; esac\", \"sh\"]";

    @TempDir
    Path dir;

    @Test
    void theNextRunRecordsWhileThePreviousOneIsChecked() throws Exception {
        Path cfg = dir.resolve("pingpong.json");
        Files.writeString(cfg, LiveTargets.config("pingpong", 2, "latency=uniform:2000-10000", WAITING_CHECKER));
        Path out = dir.resolve("out");
        assertEquals(0, CampaignRunsTest.campaign("--config", cfg.toString(), "--seeds", "1:2", "--jobs", "1",
                "--out", out.toString()));
        String json = Files.readString(out.resolve("report.json"));
        assertTrue(json.contains("\"violation_seeds\": []") || !json.contains("did not start"), json);
    }
}
