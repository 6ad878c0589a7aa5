package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every run in the reference corpus' singleproc/ folder (SharedCorpus; the reference's own example programs under its
 * shim) against ours with the same seed and arguments. Our programs are different programs, so only
 * values that are a function of the seed alone can match: the realtime base (chrono), AT_RANDOM and
 * the first getentropy bytes (entropy), and schedule outcomes of programs with the same
 * synchronisation shape (race_bank, deadlock). montecarlo, prodcons and thread_churn print
 * program-specific numbers; for them we check exit status and determinism only.
 */
class ReferenceCorpusTest {
    private static final Pattern UNIX = Pattern.compile("\\(unix (\\d+)\\)");

    static Path corpus() {
        return dev.weft.testcorpus.SharedCorpus.conformance().resolve("singleproc");
    }

    @Test
    void everyReferenceRunAgreesWhereValuesCanAgree() throws IOException {
        NativeFixture.assumeBuilt();
        List<Path> files;
        try (Stream<Path> s = Files.list(corpus())) {
            files = s.filter(p -> p.toString().endsWith(".json") && !p.getFileName().toString().equals("SUMMARY.json"))
                    .sorted().toList();
        }
        assertTrue(files.size() >= 18, "corpus incomplete: " + files);
        ObjectMapper json = new ObjectMapper();
        List<String> checked = new ArrayList<>();
        for (Path f : files) {
            JsonNode ref = json.readTree(f.toFile());
            String program = ref.get("program").asText();
            List<String> args = new ArrayList<>(List.of("--seed", ref.get("seed").asText(), "--",
                    NativeFixture.example(program).toString()));
            ref.get("args").forEach(a -> args.add(a.asText()));
            var ours = NativeFixture.weftRun(args.toArray(String[]::new));
            var again = NativeFixture.weftRun(args.toArray(String[]::new));
            assertEquals(ours, again, f + ": our run is not reproducible");
            JsonNode run = ref.get("run1");
            int refExit = run.get("exit_code").asInt();
            int refExitAsShell = refExit < 0 ? 128 - refExit : refExit;
            String refOut = run.get("stdout").asText();
            switch (program) {
                case "chrono" -> {
                    Matcher m = UNIX.matcher(refOut);
                    assertTrue(m.find(), f.toString());
                    assertTrue(ours.stdout().contains(" unix " + m.group(1) + "\n"), f + ": boot time " + ours.stdout());
                }
                case "entropy" -> {
                    for (String line : refOut.lines().filter(l -> l.startsWith("AT_RANDOM") || l.startsWith("getentropy"))
                            .toList()) {
                        assertTrue(ours.stdout().contains(line + "\n"), f + ": missing " + line + " in " + ours.stdout());
                    }
                }
                case "race_bank" -> {
                    assertEquals(refOut, ours.stdout(), f.toString());
                    assertEquals(refExitAsShell, ours.exit(), f.toString());
                }
                case "deadlock" -> {
                    assertEquals(refExitAsShell, ours.exit(), f.toString());
                    assertEquals(run.get("stderr").asText(), ours.stderr(), f.toString());
                    if (refExit == 0) {
                        assertTrue(ours.stdout().startsWith("completed without deadlock"), f.toString());
                    }
                }
                case "montecarlo", "prodcons", "thread_churn" -> {
                    assertEquals(refExitAsShell, ours.exit(), f + ": " + ours.stderr());
                    assertFalse(ours.stdout().isEmpty(), f.toString());
                }
                default -> throw new AssertionError(f + ": unknown program " + program);
            }
            checked.add(f.getFileName().toString());
        }
        assertEquals(files.size(), checked.size());
    }
}
