package dev.weft.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Property: on any input the DSL either returns a scenario or throws a ScenarioException with a
 * one-line message in the spec's form — never another exception. 100,000 seeded mutations.
 */
class ScenarioMutationTest {

    static final int CASES = 100_000;

    /** Runs the mutated inputs; returns how many ended in each outcome (null key = accepted). */
    static Map<ScenarioException.Kind, Integer> run(long seed, int cases, Map<String, Integer> accepted) {
        ScenarioMutator mutator = new ScenarioMutator(seed, ScenarioExamples.all());
        Map<ScenarioException.Kind, Integer> counts = new EnumMap<>(ScenarioException.Kind.class);
        for (int i = 0; i < cases; i++) {
            byte[] input = mutator.next();
            try {
                Scenario s = Scenarios.load(input);
                accepted.merge("accepted", 1, Integer::sum);
                checkSorted(s);
            } catch (ScenarioException e) {
                counts.merge(e.kind(), 1, Integer::sum);
                String m = e.getMessage();
                if (m == null || m.contains("\n") || !(m.startsWith("JSON parse error: ") || m.startsWith("Invalid "))) {
                    throw new AssertionError("case " + i + ": bad message " + m + " for " + new String(input, StandardCharsets.UTF_8));
                }
            } catch (AssertionError e) {
                throw e;
            } catch (Throwable t) {
                throw new AssertionError("case " + i + " (seed " + seed + ") threw " + t + " on input: "
                        + new String(input, StandardCharsets.UTF_8), t);
            }
        }
        return counts;
    }

    /** Plain checks (no JUnit) so the benchmark main can run this loop on a bare class path. */
    private static void checkSorted(Scenario s) {
        for (int i = 1; i < s.events().size(); i++) {
            if (Long.compareUnsigned(s.events().get(i - 1).timeNs(), s.events().get(i).timeNs()) > 0) {
                throw new AssertionError("events not sorted: " + s.events());
            }
        }
    }

    @Test
    void mutatedScenariosNeverThrowAnythingElse() {
        Map<String, Integer> accepted = new java.util.TreeMap<>();
        Map<ScenarioException.Kind, Integer> counts = run(20261130L, CASES, accepted);
        // The mutations reach past the parser into every validation rule, and some still parse.
        for (ScenarioException.Kind kind : ScenarioException.Kind.values()) {
            assertTrue(counts.getOrDefault(kind, 0) > 0, "no case ended in " + kind + ": " + counts);
        }
        assertTrue(accepted.getOrDefault("accepted", 0) > 1000, accepted.toString());
    }

    @Test
    void sameSeedSameVariants() {
        ScenarioMutator a = new ScenarioMutator(7, ScenarioExamples.all());
        ScenarioMutator b = new ScenarioMutator(7, ScenarioExamples.all());
        for (int i = 0; i < 1000; i++) {
            assertEquals(new String(a.next(), StandardCharsets.ISO_8859_1), new String(b.next(), StandardCharsets.ISO_8859_1));
        }
        assertFalse(ScenarioExamples.all().isEmpty());
    }
}
