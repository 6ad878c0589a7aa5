package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A node that has exited has printed everything it will print: once a timed wait for it says it ended, its last lines
 * have reached the sink. Without that, a run ended by the deadlock verdict lost its nodes' last lines under load.
 */
class NodeProcessOutputTest {

    @Test
    void aTimedWaitThatSeesTheEndAlsoSeesTheLastLines() throws Exception {
        List<String> lines = new CopyOnWriteArrayList<>();
        // a slow sink stands in for a loaded machine: the pump is still busy when the process has long exited
        NodeProcess.LineSink slow = (stderr, line, length) -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lines.add(new String(line, 0, length, StandardCharsets.UTF_8).strip());
        };
        NodeProcess n = NodeProcess.start(0, new ProcessBuilder("sh", "-c", "echo first; echo last"), Optional.empty(), slow);
        assertTrue(n.waitFor(10, TimeUnit.SECONDS));
        assertEquals(List.of("first", "last"), lines);
    }
}
