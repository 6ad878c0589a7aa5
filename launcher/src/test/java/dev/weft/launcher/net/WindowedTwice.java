package dev.weft.launcher.net;

import static dev.weft.launcher.run.ClusterRunTest.weft;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.ClusterRunTest.Out;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every windowed-run test asks (protocol-v3 §2): two runs of one seed, {@code --window 1000}, each ending by
 * itself and replaying identical, give the same recording to the byte.
 */
final class WindowedTwice {

    /** What a test checks of each run beyond its exit and replay: its output and its recording. */
    interface RunCheck {
        void check(Out out, Path log) throws Exception;
    }

    private WindowedTwice() {
    }

    /**
     * Runs the scenario windowed twice, recording to {@code logBase-0.weftlog} and {@code logBase-1.weftlog}: each run
     * exits 0, passes check and replays identical, and the two recordings are the same bytes. Returns the first
     * recording.
     */
    static Path record(Path scenario, Path logBase, int watchdogSeconds, RunCheck check) throws Exception {
        Path[] logs = new Path[2];
        for (int i = 0; i < 2; i++) {
            logs[i] = logBase.resolveSibling(logBase.getFileName() + "-" + i + ".weftlog");
            Out o = weft("--window", "1000", "--watchdog", Integer.toString(watchdogSeconds),
                    "--record", logs[i].toString(), scenario.toString());
            assertEquals(0, o.exit(), o.stdout() + o.stderr());
            check.check(o, logs[i]);
            ReplayReport r = Replayer.replay(logs[i], ReplayOptions.PLAIN);
            assertTrue(r.identical(), () -> "diverged: " + r.divergence());
        }
        assertArrayEquals(Files.readAllBytes(logs[0]), Files.readAllBytes(logs[1]),
                "two windowed runs of one seed differ");
        return logs[0];
    }
}
