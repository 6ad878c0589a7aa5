package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftMain;
import dev.weft.launcher.support.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft run} stopped by SIGTERM (what {@code timeout} and CI jobs send) takes the target's
 * process tree with it. Before, the wrappers and a computing target went on running under init
 * (unshare's --kill-child acts only when unshare itself dies).
 */
class StopTreeTest {
    @TempDir
    Path dir;

    @Test
    void sigtermOfWeftRunKillsTheTargetTree() throws Exception {
        NativeFixture.assumeBuilt();
        Path started = dir.resolve("started");
        // a grandchild that computes forever once it has said it started
        String loop = "sh -c 'touch " + started + "; while :; do :; done' & wait";
        Process weft = ChildJvm.builder(dir, List.of("-XX:TieredStopAtLevel=1"), WeftMain.class, "run", "--shim",
                NativeFixture.shim().toString(), "--seed", "1", "--", "sh", "-c", loop)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            for (int i = 0; i < 300 && !Files.exists(started); i++) {
                Thread.sleep(50);
            }
            assertTrue(Files.exists(started), "the target never started");
            List<ProcessHandle> tree = weft.descendants().toList();
            assertTrue(!tree.isEmpty());
            weft.destroy(); // SIGTERM
            assertTrue(weft.waitFor(20, TimeUnit.SECONDS), "weft run did not stop");
            for (ProcessHandle h : tree) {
                h.onExit().get(10, TimeUnit.SECONDS);
            }
            assertEquals(0, tree.stream().filter(ProcessHandle::isAlive).count());
        } finally {
            weft.descendants().forEach(ProcessHandle::destroyForcibly);
            weft.destroyForcibly();
        }
    }
}
