package dev.weft.app.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.vm.Settings;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run panel's model without a toolkit or a process: the form checked as typed, the command it makes, the seed
 * and the recording's name moving together, a scenario replacing the program, and Start refused off Linux.
 */
class RunViewModelTest {

    private final List<Runnable> ui = new ArrayList<>();
    private final List<Path> opened = new ArrayList<>();

    private RunViewModel model(boolean linux) {
        RunViewModel m = new RunViewModel(new Settings(null), ui::add, opened::add, linux);
        m.fill(new RunRequest("/bin/true", "", "2", "", "3", "random", "", "30", "/tmp/ring-s3.weftlog", "",
                false, false, true, ""));
        return m;
    }

    @Test
    void aValidFormMakesItsCommandAndCanStartOnLinuxOnly() {
        RunViewModel m = model(true);
        assertEquals(java.util.Map.of(), m.problems().get());
        assertTrue(m.canStart().get());
        assertTrue(m.commandLine().get().startsWith("weft run "), m.commandLine().get());
        assertTrue(m.commandLine().get().contains("--seed 3"), m.commandLine().get());
        assertFalse(model(false).canStart().get(), "runs need Linux: the form can be filled, not started");
    }

    @Test
    void eachProblemIsNamedForItsFieldAndStopsStart() {
        RunViewModel m = model(true);
        m.nodes.set("two");
        assertTrue(m.problems().get().containsKey(RunRequest.Field.NODES), m.problems().get().toString());
        assertFalse(m.canStart().get());
        m.nodes.set("2");
        m.program.set("/no/such/program-anywhere");
        assertTrue(m.problems().get().containsKey(RunRequest.Field.PROGRAM), m.problems().get().toString());
        m.start();
        assertFalse(m.running().get(), "a form with problems starts nothing");
    }

    @Test
    void theNextSeedRenamesARecordingNamedAfterTheOldOne() {
        RunViewModel m = model(true);
        m.nextSeed();
        assertEquals("4", m.seed.get());
        assertEquals("/tmp/ring-s4.weftlog", m.record.get());
        m.seed.set("0x10");
        m.nextSeed();
        assertEquals("17", m.seed.get(), "hex is read as weft run reads it");
    }

    @Test
    void aScenarioStandsInForProgramNodesNetAndSeed(@TempDir Path dir) {
        RunViewModel m = model(true);
        assertFalse(m.fromScenario().get());
        m.scenario.set(dir.resolve("s.json").toString());
        assertTrue(m.fromScenario().get());
        m.network.set(false);
        assertFalse(m.fromScenario().get(), "without a network there is no scenario");
    }
}
