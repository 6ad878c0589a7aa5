package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run that ended with the broker's deadlock verdict is a DEADLOCK, not whatever the checker made of its log. */
class DeadlockBucketTest {
    @TempDir
    Path dir;

    @Test
    void theVerdictLineAndExit4MakeADeadlock() throws Exception {
        Path out = dir.resolve("run.txt");
        Files.writeString(out, "[n6] ...\nweft run: deadlock: node 6 waits in recv on 127.0.0.7:9000\nrecorded to x\n");
        RunResult judged = new RunResult("DISCARD", "observer lost", false);
        RunResult r = RunExecutor.deadlockOr(judged, 4, out);
        assertEquals("DEADLOCK", r.verdict());
        assertEquals("deadlock: node 6 waits in recv on 127.0.0.7:9000", r.identity());
    }

    @Test
    void aViolationStillWinsAndAnExit4WithoutTheLineIsTheNodesOwn() throws Exception {
        Path out = dir.resolve("run.txt");
        Files.writeString(out, "weft run: deadlock: node 0 waits in recv on 127.0.0.1:9000\n");
        RunResult violation = new RunResult("VIOLATION", "two leaders", false);
        assertEquals(violation, RunExecutor.deadlockOr(violation, 4, out));
        Files.writeString(out, "weft run: node 2 exited with status 4\n");
        RunResult ok = new RunResult("ERROR", "x", false);
        assertEquals(ok, RunExecutor.deadlockOr(ok, 4, out));
        assertEquals(ok, RunExecutor.deadlockOr(ok, 0, out));
    }
}
