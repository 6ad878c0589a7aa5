package dev.weft.launcher.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.RunCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mutation sweep for scenario files as {@code weft run} takes them (issue 28): seeded mutants of a scenario using
 * every member go through the real command line up to the point where it would start programs (the shim is missing
 * on purpose, so nothing ever runs). Every mutant ends in exit 2 with exactly one line on stderr: the scenario's own
 * error, a run limit, or — for a mutant still valid — the missing shim. No exception escapes. Prints its counts.
 */
class ScenarioRunMutationTest {
    static final int CASES = Integer.getInteger("weft.mutation.scenario.cases", 3000);
    static final String SEED = "{\"name\":\"all members\",\"description\":\"d\",\"seed\":42,"
            + "\"nodes\":[{\"node_id\":0,\"program\":\"/bin/echo\",\"args\":[\"a\",\"b\\tc\"]},"
            + "{\"node_id\":1,\"program\":\"sh\",\"args\":[\"-c\",\"exit 0\"]}],"
            + "\"network\":{\"latency\":\"uniform:100-5000\",\"loss\":0.01,\"bandwidth\":1000000,\"partitions\":\"\"},"
            + "\"filesystem\":{\"0\":{\"fsync_lies\":true,\"enospc_after_bytes\":4096,\"torn_write_probability\":0.5}},"
            + "\"time_skew\":{\"1\":250},"
            + "\"events\":[{\"time_ns\":1000,\"action\":{\"type\":\"activate_partition\",\"spec\":\"0|1\"}},"
            + "{\"time_ns\":2000,\"action\":{\"type\":\"clear_partition\"}},"
            + "{\"time_ns\":3000,\"action\":{\"type\":\"crash\",\"node_id\":1}},"
            + "{\"time_ns\":4000,\"action\":{\"type\":\"start\",\"node_id\":1}}]}";

    @TempDir
    Path dir;

    @Test
    void everyMutantEndsInOneCleanLine() throws Exception {
        SplittableRandom r = new SplittableRandom(2026_12_01L);
        Path f = dir.resolve("s.json");
        Map<String, Integer> outcomes = new TreeMap<>();
        long t0 = System.nanoTime();
        for (int i = 0; i < CASES; i++) {
            byte[] mutant = i == 0 ? SEED.getBytes(StandardCharsets.UTF_8) : Mutator.mutate(SEED.getBytes(StandardCharsets.UTF_8), r);
            Files.write(f, mutant);
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int rc;
            try {
                rc = RunCommand.run(new String[] {"--shim", dir.resolve("no-shim.so").toString(), f.toString()},
                        Map.of("PATH", "/usr/bin:/bin"), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
            } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
                throw new AssertionError("mutant " + i + " escaped with " + e + ": "
                        + new String(mutant, StandardCharsets.UTF_8), e);
            }
            String e = err.toString(StandardCharsets.UTF_8);
            String shown = "mutant " + i + ": " + new String(mutant, StandardCharsets.UTF_8);
            assertEquals(2, rc, shown + "\n" + e);
            assertTrue(e.startsWith("weft run: ") && e.indexOf('\n') == e.length() - 1, shown + "\n" + e);
            assertTrue(!e.contains("Exception") && !e.contains("\tat "), shown + "\n" + e);
            outcomes.merge(kind(e), 1, Integer::sum);
        }
        System.out.println("scenario run sweep: " + CASES + " mutants in " + (System.nanoTime() - t0) / 1_000_000
                + " ms, outcomes " + outcomes);
        assertTrue(outcomes.getOrDefault("valid (missing shim)", 0) > 0, "some mutants stay valid: " + outcomes);
        assertTrue(outcomes.getOrDefault("run limit", 0) > 0, "some mutants hit a run limit: " + outcomes);
    }

    private static String kind(String line) {
        if (line.contains("no-shim.so")) {
            return "valid (missing shim)";
        }
        if (line.contains("JSON parse error")) {
            return "parse error";
        }
        if (line.contains(" holds ") || line.contains("activate_partition spec") || line.contains("a run starts at most")
                || line.contains("the program is empty")) {
            return "run limit";
        }
        return "validation error";
    }
}
