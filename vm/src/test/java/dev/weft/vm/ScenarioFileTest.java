package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioFileTest {

    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        Path f = dir.resolve("s.scenario");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void keysOverrideTheDefaultsAndCommentsAreIgnored() throws Exception {
        Scenario s = ScenarioFile.read(file("# short run\nrequests = 10\n\nkill_min_ms=3 # early\nkill_max_ms = 4\n"));
        assertEquals(new Scenario(10, 2, 3, 4, 5, 20), s);
    }

    @Test
    void errorsNameTheFileAndLine() throws Exception {
        Path f = file("requests = 10\nspeed = 3\n");
        assertEquals(f + ":2: unknown key 'speed' (known: requests, pace_ms, kill_min_ms, kill_max_ms, restart_min_ms,"
                + " restart_max_ms)", assertThrows(ScenarioFile.ScenarioException.class, () -> ScenarioFile.read(f)).getMessage());
        Path g = file("requests = ten\n");
        assertEquals(g + ":1: 'requests' needs a whole number, got 'ten'",
                assertThrows(ScenarioFile.ScenarioException.class, () -> ScenarioFile.read(g)).getMessage());
        Path h = file("requests = 1\nrequests = 2\n");
        assertEquals(h + ":2: 'requests' is given twice",
                assertThrows(ScenarioFile.ScenarioException.class, () -> ScenarioFile.read(h)).getMessage());
        Path k = file("kill_min_ms = 50\nkill_max_ms = 10\n");
        assertEquals(k + ": kill window must satisfy 0 <= kill_min_ms <= kill_max_ms <= 60000, got 50..10",
                assertThrows(ScenarioFile.ScenarioException.class, () -> ScenarioFile.read(k)).getMessage());
    }
}
