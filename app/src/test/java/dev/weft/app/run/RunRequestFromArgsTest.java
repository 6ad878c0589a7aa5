package dev.weft.app.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** weft run's command line into the run panel's form (workbench --tool run -- ARGS), and back. */
class RunRequestFromArgsTest {

    @Test
    void aNetworkedRunRoundTripsThroughTheForm() {
        List<String> args = List.of("--seed", "3", "--strategy", "rr", "--net", "latency=uniform:1000-60000", "--nodes", "7",
                "--record", "c.weftlog", "--watchdog", "30", "--window", "5000", "--stats", "--", "chord_node", "6", "45", "a b");
        RunRequest r = RunRequest.fromArgs(concat(List.of("CHORD_FIX=0", "X=a b"), args));
        assertTrue(r.network());
        assertEquals("7", r.nodes());
        assertEquals("6 45 'a b'", r.arguments());
        assertEquals(java.util.Map.of("CHORD_FIX", "0", "X", "a b"), r.environment());
        assertEquals(args, r.args(), "the form gives back the same weft run arguments");
        assertEquals(java.util.Map.of(), r.problems());
    }

    @Test
    void withoutANetItIsASingleProcess() {
        RunRequest r = RunRequest.fromArgs(List.of("--seed", "9", "--trace", "--", "./entropy"));
        assertFalse(r.network());
        assertTrue(r.trace());
        assertEquals(List.of("--seed", "9", "--strategy", "random", "--trace", "--", "./entropy"), r.args());
    }

    @Test
    void whatTheFormHasNoFieldForIsRefusedByName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunRequest.fromArgs(List.of("--hosts", "a:1", "--", "p")))
                .getMessage().startsWith("the run panel has no field for \"--hosts\""));
        assertEquals("no program: end the weft run arguments with -- PROGRAM [ARGS]",
                assertThrows(IllegalArgumentException.class, () -> RunRequest.fromArgs(List.of("--seed", "1"))).getMessage());
        assertEquals("--nodes needs a value",
                assertThrows(IllegalArgumentException.class, () -> RunRequest.fromArgs(List.of("--nodes"))).getMessage());
    }

    @Test
    void aTrailingScenarioFileTakesThePlaceOfTheProgram() {
        List<String> args = List.of("--strategy", "random", "--record", "s.weftlog", "--window", "1000", "sc.json");
        RunRequest r = RunRequest.fromArgs(args);
        assertTrue(r.usesScenario());
        assertEquals("sc.json", r.scenario());
        assertEquals(args, r.args());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
