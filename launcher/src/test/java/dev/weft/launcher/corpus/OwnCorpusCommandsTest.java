package dev.weft.launcher.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.launcher.check.chord.ChordCheckCommand;
import dev.weft.launcher.check.chord.ChordTraceCommand;
import dev.weft.launcher.check.raft.RaftCheckCommand;
import dev.weft.launcher.fuzz.FuzzCommand;
import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.testcorpus.Corpus;
import dev.weft.testcorpus.OwnCorpus;
import dev.weft.testcorpus.SharedCorpus;
import dev.weft.testsupport.CapturedRun;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our own corpus (test-corpus/corpus, always present) through the commands, as the reference-corpus tests do with
 * the reference's: every command a sidecar records — {@code weft replay}, {@code weft replay --check fifo,dup},
 * {@code weft check chord|raft}, {@code weft trace chord} — gives the pinned exit code, stdout and stderr; windowed
 * recordings replay identical; the fuzz case gives the pinned report and byte-identical reproducers.
 */
class OwnCorpusCommandsTest {

    private interface Command {
        int run(String[] args, PrintStream out, PrintStream err);
    }

    /** The sidecar members that record a command run, and the command each names. */
    private static final Map<String, Command> CHECKERS = Map.of(
            "chord_check", ChordCheckCommand::run,
            "chord_trace", ChordTraceCommand::run,
            "raft_check", RaftCheckCommand::run);

    @TestFactory
    List<DynamicTest> everyRecordedCommandGivesThePinnedOutput() {
        Corpus own = OwnCorpus.corpus();
        List<DynamicTest> tests = new ArrayList<>();
        int windowed = 0;
        int checkers = 0;
        for (Path sidecar : own.sidecars()) {
            JsonNode d = SharedCorpus.readJson(sidecar);
            String log = d.get("log").asText();
            for (String key : List.of("replay", "replay_check")) {
                tests.add(DynamicTest.dynamicTest(key + " " + log, () -> replay(own, d.get(key))));
            }
            if (d.path("facts").path("header").path("window_ns").asLong(0) > 0) {
                windowed++;
                tests.add(DynamicTest.dynamicTest("windowed replays identical " + log, () -> {
                    assertEquals(0, d.get("replay").get("exit_code").asInt());
                    assertTrue(d.get("replay").get("stdout").asText().startsWith("replay identical: "));
                }));
            }
            for (Map.Entry<String, Command> checker : CHECKERS.entrySet().stream().sorted(Map.Entry.comparingByKey()).toList()) {
                if (d.hasNonNull(checker.getKey())) {
                    checkers++;
                    tests.add(DynamicTest.dynamicTest(checker.getKey() + " " + log,
                            () -> checker(own, d.get(checker.getKey()), checker.getValue())));
                }
            }
        }
        assertTrue(tests.size() >= 2 * 30, "own corpus commands: " + tests.size());
        assertTrue(windowed >= 3, "windowed recordings in the own corpus: " + windowed);
        assertTrue(checkers >= 9, "checker runs in the own corpus: " + checkers);
        return tests;
    }

    /** {@code weft replay} from the corpus folder, with the log path as the sidecar gives it. */
    private static void replay(Corpus own, JsonNode run) {
        List<String> argv = argv(run);
        String[] args = argv.subList(2, argv.size()).toArray(new String[0]); // drop "weft", "replay"
        CapturedRun r = CapturedRun.of((o, e) -> ReplayCommand.run(args, o, e, own.root()));
        assertPinned(own, run, r);
    }

    /** A checker with the log's absolute path (its printed path turned back into the corpus-relative one). */
    private static void checker(Corpus own, JsonNode run, Command command) {
        List<String> argv = argv(run);
        String relative = argv.get(1);
        String absolute = own.resolve(relative).toString();
        List<String> args = new ArrayList<>(argv.subList(1, argv.size()));
        args.set(0, absolute);
        CapturedRun r = CapturedRun.of((o, e) -> command.run(args.toArray(new String[0]), o, e));
        assertPinned(own, run, new CapturedRun(r.code(), r.out().replace(absolute, relative), r.err().replace(absolute, relative)));
    }

    private static void assertPinned(Corpus own, JsonNode run, CapturedRun r) {
        assertEquals(run.get("exit_code").asInt(), r.code(), () -> "exit code; stderr:\n" + r.err());
        if (own.expectedText(run, "stdout") != null) {
            assertEquals(own.expectedText(run, "stdout"), r.out(), "stdout");
        } else {
            assertEquals(run.get("stdout_first_line").asText(), r.out().lines().findFirst().orElse(""), "stdout's first line");
            assertTrue(own.matches(run, "stdout", r.out()), "stdout differs from its pinned sha256");
        }
        assertEquals(own.expectedText(run, "stderr"), r.err(), "stderr");
    }

    private static List<String> argv(JsonNode run) {
        List<String> argv = new ArrayList<>();
        run.get("argv").forEach(a -> argv.add(a.asText()));
        return argv;
    }

    /** The negative logs our reader rejects: the checkers fail with the reader's error text, as replay does. */
    @TestFactory
    List<DynamicTest> unreadableLogsGiveTheCheckersTheReadersError() {
        Corpus own = OwnCorpus.corpus();
        List<DynamicTest> tests = new ArrayList<>();
        for (Path sidecar : own.sidecars()) {
            JsonNode d = SharedCorpus.readJson(sidecar);
            String log = d.get("log").asText();
            String replayErr = d.get("replay").get("stderr").asText();
            String prefix = "weft replay: " + log + ": ";
            if (d.get("replay").get("exit_code").asInt() != 1 || !replayErr.startsWith(prefix)) {
                continue;
            }
            String absolute = own.resolve(log).toString();
            for (String name : List.of("chord-check", "chord-trace", "raft-check")) {
                Command command = CHECKERS.get(name.replace('-', '_'));
                tests.add(DynamicTest.dynamicTest(name + " " + log, () -> {
                    CapturedRun r = CapturedRun.of((o, e) -> command.run(new String[] {absolute}, o, e));
                    assertEquals(1, r.code());
                    assertEquals("", r.out());
                    assertEquals(name + ": " + log + ": " + replayErr.substring(prefix.length()), r.err().replace(absolute, log));
                }));
            }
        }
        assertTrue(tests.size() >= 3 * 9, "unreadable own-corpus cases: " + tests.size() / 3);
        return tests;
    }

    /** fuzz/demo.run.json: the same command gives the same exit code, report, output listing and reproducer bytes. */
    @Test
    void theFuzzCaseGivesThePinnedReportAndReproducers(@TempDir Path work) throws IOException {
        Corpus own = OwnCorpus.corpus();
        JsonNode run = SharedCorpus.readJson(own.resolve("fuzz/demo.run.json"));
        List<String> argv = argv(run);
        Files.createDirectories(work.resolve("fuzz"));
        Files.copy(own.resolve("fuzz/demo.json"), work.resolve("fuzz/demo.json"));
        String[] args = argv.subList(2, argv.size()).toArray(new String[0]);
        CapturedRun r = CapturedRun.of((o, e) -> FuzzCommand.run(args, o, e, work));
        assertEquals(run.get("exit_code").asInt(), r.code(), r.err());
        assertEquals(withoutDuration(run.get("stdout").asText()), withoutDuration(r.out()));
        String outDir = argv.get(argv.indexOf("--out") + 1);
        List<String> listing = new ArrayList<>();
        run.get("out_dir_listing").forEach(n -> listing.add(n.asText()));
        try (Stream<Path> s = Files.list(work.resolve(outDir))) {
            assertEquals(listing, s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        for (String name : listing) {
            if (name.equals("report.txt")) {
                assertEquals(withoutDuration(Files.readString(own.resolve(outDir).resolve(name))),
                        withoutDuration(Files.readString(work.resolve(outDir).resolve(name))), name);
                continue;
            }
            assertEquals(-1L, Files.mismatch(own.resolve(outDir).resolve(name), work.resolve(outDir).resolve(name)),
                    name + " differs from the committed one");
        }
    }

    /** The report's duration is wall-clock time, the one thing in it that is not a function of the inputs. */
    private static String withoutDuration(String report) {
        return report.replaceFirst("(swept     : \\d+ seed\\(s\\) in )\\d+(?:ms|\\.\\ds)", "$1<took>");
    }
}
