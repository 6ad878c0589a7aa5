package dev.weft.launcher.check;

import dev.weft.launcher.check.chord.ChordCheckCommand;
import dev.weft.launcher.check.chord.ChordTraceCommand;
import dev.weft.launcher.check.raft.RaftCheckCommand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every corpus log whose sidecar records a {@code chord_check} or {@code raft_check} run: our command
 * must give the same exit code and stdout (for Chord, FAILED lines compared after sorting them, since
 * the reference prints them in hash order and we print them by ident). Logs the reference could not
 * read give our commands the same read error.
 */
class CorpusCheckersTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Path conformance() {
        return dev.weft.testcorpus.SharedCorpus.conformance();
    }

    private static List<Path> sidecars() throws IOException {
        try (Stream<Path> files = Files.walk(conformance())) {
            return files.filter(p -> p.getFileName().toString().endsWith(".expect.json")).sorted().toList();
        }
    }

    record Run(int exit, String stdout, String stderr) {
    }

    interface Command {
        int run(String[] args, PrintStream out, PrintStream err);
    }

    static Run run(Command command, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = command.run(args, new PrintStream(out, true, StandardCharsets.ISO_8859_1),
                new PrintStream(err, true, StandardCharsets.ISO_8859_1));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Sorts each run of consecutive {@code  node N: FAILED} lines (by ident). */
    static String sortFailedLines(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        int i = 0;
        while (i < lines.size()) {
            int j = i;
            while (j < lines.size() && lines.get(j).endsWith(": FAILED")) j++;
            if (j > i) {
                lines.subList(i, j).sort((a, b) -> Integer.compare(ident(a), ident(b)));
                i = j;
            } else {
                i++;
            }
        }
        return String.join("\n", lines);
    }

    private static int ident(String failedLine) {
        String s = failedLine.trim();
        return Integer.parseInt(s.substring("node".length(), s.indexOf(':')).trim());
    }

    @TestFactory
    List<DynamicTest> checkersMatchTheReferenceOnEveryCorpusLog() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        int chord = 0, raft = 0;
        for (Path sidecar : sidecars()) {
            JsonNode d = JSON.readTree(sidecar.toFile());
            for (String key : List.of("chord_check", "raft_check")) {
                JsonNode c = d.get(key);
                if (c == null || c.isNull()) continue;
                if (key.equals("chord_check")) chord++;
                else raft++;
                tests.add(DynamicTest.dynamicTest(key + " " + d.get("log").asText(), () -> compare(d, c, key)));
            }
        }
        assertTrue(chord >= 15 && raft >= 7, "corpus checker cases found: chord " + chord + ", raft " + raft);
        return tests;
    }

    private static void compare(JsonNode d, JsonNode c, String key) {
        String relative = c.get("argv").get(1).asText();
        String absolute = conformance().resolve(relative).toString();
        List<String> args = new ArrayList<>();
        args.add(absolute);
        for (int i = 2; i < c.get("argv").size(); i++) args.add(c.get("argv").get(i).asText());
        Run run = run(key.equals("chord_check") ? ChordCheckCommand::run : RaftCheckCommand::run, args.toArray(String[]::new));
        String stdout = run.stdout().replace(absolute, relative);
        String expected = c.get("stdout").asText();
        assertFalse(c.has("stdout_file"), "stdout stored apart: extend this test");
        assertEquals(c.get("exit_code").asInt(), run.exit(), "exit code");
        assertEquals(c.get("stderr").asText(), run.stderr().replace(absolute, relative), "stderr");
        assertTrue(stdout.contains("verdict   : " + c.get("verdict_line").asText() + "\n"), stdout);
        // ours is sorted already: sorting must not change it, and the reference's must match after sorting
        assertEquals(stdout, sortFailedLines(stdout));
        assertEquals(key.equals("chord_check") ? sortFailedLines(expected) : expected, stdout);
    }

    /** The fixed prefix of an error whose rest is [informative], or null when the whole text is exact. */
    private static String informativeTail(String readError) {
        if (readError.startsWith("I/O error: ")) return "I/O error: ";
        int m = readError.indexOf("malformed record: ");
        return m >= 0 ? readError.substring(0, m + "malformed record: ".length()) : null;
    }

    /** The reference's `weft replay` read errors on the negative logs: the checkers must fail the same way. */
    @TestFactory
    List<DynamicTest> unreadableLogsGiveTheReadersErrorText() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path sidecar : sidecars()) {
            JsonNode d = JSON.readTree(sidecar.toFile());
            JsonNode replay = d.get("replay");
            String log = d.get("log").asText();
            if (replay == null || !replay.get("stderr").asText().startsWith("weft replay: " + log + ": ")) continue;
            String readError = replay.get("stderr").asText().substring(("weft replay: " + log + ": ").length());
            String absolute = conformance().resolve(log).toString();
            for (String name : List.of("chord-check", "chord-trace", "raft-check")) {
                Command command = switch (name) {
                    case "chord-check" -> ChordCheckCommand::run;
                    case "chord-trace" -> ChordTraceCommand::run;
                    default -> RaftCheckCommand::run;
                };
                tests.add(DynamicTest.dynamicTest(name + " " + log, () -> {
                    Run run = run(command, absolute);
                    assertEquals(1, run.exit());
                    assertEquals("", run.stdout());
                    String stderr = run.stderr().replace(absolute, log);
                    String informative = informativeTail(readError);
                    if (informative == null) {
                        assertEquals(name + ": " + log + ": " + readError, stderr);
                    } else { // third-party wording after the fixed prefix is not a contract (weft-log-v2.md §9)
                        assertTrue(stderr.startsWith(name + ": " + log + ": " + informative), stderr);
                        assertTrue(stderr.endsWith("\n") && stderr.indexOf('\n') == stderr.length() - 1, stderr);
                    }
                }));
            }
        }
        assertTrue(tests.size() >= 3 * 8, "negative corpus cases: " + tests.size() / 3);
        return tests;
    }
}
