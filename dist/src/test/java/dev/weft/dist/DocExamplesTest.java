package dev.weft.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command the docs show in a {@code ```console} block is run, in order, with {@code weft} on PATH (this
 * checkout's script) from a scratch directory where {@code examples/} and {@code test-corpus/} are the real ones, and
 * its output must match the lines shown under it: a line {@code ...} stands for any number of lines,
 * {@code [exit N]} as the last line asserts the exit code (otherwise 0 is expected). Blocks of other languages are
 * not run (install commands that need root; the package smoke test covers those).
 */
class DocExamplesTest {

    record Example(Path page, int line, String command, List<String> expected, int exitCode) {
    }

    static List<Example> examples(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page, StandardCharsets.UTF_8);
        List<Example> found = new ArrayList<>();
        boolean inConsole = false;
        String command = null;
        int commandLine = 0;
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!inConsole) {
                inConsole = l.equals("```console");
                continue;
            }
            if (l.equals("```") || l.startsWith("$ ")) {
                if (command != null) {
                    found.add(example(page, commandLine, command, expected));
                }
                command = null;
                expected = new ArrayList<>();
                if (l.equals("```")) {
                    inConsole = false;
                } else {
                    command = l.substring(2);
                    commandLine = i + 1;
                }
                continue;
            }
            expected.add(l);
        }
        return found;
    }

    private static Example example(Path page, int line, String command, List<String> expected) {
        int exit = 0;
        List<String> lines = new ArrayList<>(expected);
        if (!lines.isEmpty() && lines.get(lines.size() - 1).matches("\\[exit \\d+]")) {
            String last = lines.remove(lines.size() - 1);
            exit = Integer.parseInt(last.substring(6, last.length() - 1));
        }
        return new Example(page, line, command, lines, exit);
    }

    /** Whether {@code actual} matches {@code expected}, where a "..." line matches any run of lines. */
    static boolean matches(List<String> expected, int e, List<String> actual, int a) {
        if (e == expected.size()) {
            return a == actual.size();
        }
        if (expected.get(e).equals("...")) {
            for (int skip = a; skip <= actual.size(); skip++) {
                if (matches(expected, e + 1, actual, skip)) {
                    return true;
                }
            }
            return false;
        }
        return a < actual.size() && expected.get(e).equals(actual.get(a)) && matches(expected, e + 1, actual, a + 1);
    }

    @TestFactory
    List<DynamicTest> everyConsoleCommandInTheDocsRunsAsShown(@TempDir Path tmp) throws IOException {
        Path bin = Repo.binWithWeft(Files.createDirectories(tmp.resolve("bin")));
        Path work = Repo.scratchCheckout(tmp);
        List<DynamicTest> tests = new ArrayList<>();
        for (Path page : Repo.docs()) {
            for (Example ex : examples(page)) {
                String name = Repo.ROOT.relativize(page) + ":" + ex.line() + " $ " + ex.command();
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    Repo.Result r = Repo.bash(ex.command(), Map.of(), bin, work);
                    List<String> actual = r.output().lines().toList();
                    assertEquals(ex.exitCode(), r.code(), name + "\n" + r.output());
                    if (!matches(ex.expected(), 0, actual, 0)) {
                        fail(name + ": output differs from the page.\n--- page:\n" + String.join("\n", ex.expected())
                                + "\n--- actual:\n" + r.output());
                    }
                }));
            }
        }
        assertFalse(tests.isEmpty(), "no ```console examples found in docs/");
        return tests;
    }

    @Test
    void theMatcherIsStrictOutsideEllipses() {
        assertTrue(matches(List.of("a", "...", "z"), 0, List.of("a", "b", "c", "z"), 0));
        assertTrue(matches(List.of("a", "...", "z"), 0, List.of("a", "z"), 0));
        assertFalse(matches(List.of("a", "z"), 0, List.of("a", "b", "z"), 0));
        assertFalse(matches(List.of("a"), 0, List.of("a", "extra"), 0));
    }
}
