package dev.weft.launcher.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.testcorpus.SharedCorpus;
import dev.weft.log.CanonicalJson;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every recording of the reference corpus, replayed with {@code weft replay} and {@code weft replay --check fifo,dup}:
 * exit code, stdout and stderr must equal the sidecar's (stderr may differ only in the spec's [informative] parts:
 * third-party parser and decoder wording). Windowed recordings must replay identical to the recorded digest — the
 * product decision where the reference fails on its own recordings.
 */
class ReplayConformanceTest {

    @TestFactory
    Stream<DynamicTest> everyCorpusLogReplaysLikeTheReference() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path sidecar : SharedCorpus.sidecars()) {
            JsonNode expect = SharedCorpus.readJson(sidecar);
            if (!expect.has("replay")) {
                continue;
            }
            String log = expect.get("log").asText();
            boolean windowed = expect.path("facts").path("header").path("window_ns").asLong(0) != 0;
            tests.add(DynamicTest.dynamicTest("replay " + log, () -> check(log, expect.get("replay"), windowed)));
            tests.add(DynamicTest.dynamicTest("replay --check " + log, () -> check(log, expect.get("replay_check"), windowed)));
        }
        assertTrue(tests.size() >= 100, "expected the whole corpus, found " + tests.size() / 2 + " logs");
        return tests.stream();
    }

    private static void check(String log, JsonNode run, boolean windowed) throws Exception {
        List<String> argv = new ArrayList<>();
        run.get("argv").forEach(a -> argv.add(a.asText()));
        String[] args = argv.subList(2, argv.size()).toArray(new String[0]); // drop "weft", "replay"
        Path workingDir = SharedCorpus.workingDirFor(log);
        dev.weft.testsupport.CapturedRun r = runReplay(args, workingDir);
        if (windowed) {
            long[] recorded = recordedDigest(workingDir.resolve(log));
            String first = "replay identical: " + recorded[0] + " op(s), stream digest " + Fnv1a.hex16(recorded[1]) + "\n";
            assertTrue(r.out().startsWith(first), () -> "windowed log must replay identical; got stdout:\n" + head(r.out())
                    + "\nstderr:\n" + r.err());
            assertTrue(r.code() == 0 || (r.code() == 2 && argv.contains("--check")), "exit " + r.code());
            return;
        }
        assertEquals(run.get("exit_code").asInt(), r.code(), () -> "exit code; stderr:\n" + r.err());
        assertEquals(SharedCorpus.expectedText(run, "stdout"), r.out(), "stdout");
        String expectedErr = SharedCorpus.expectedText(run, "stderr");
        if (r.code() != 1 && !argv.contains("--until") && !hasEndRecord(workingDir.resolve(log))) {
            // Our product decision: a verified prefix (no end record) is named on stderr; the reference is silent.
            expectedErr += ReplayCommand.PREFIX_NOTE.formatted(argv.get(2));
        }
        assertEquals(normalizeInformative(expectedErr), normalizeInformative(r.err()), "stderr");
    }

    private static boolean hasEndRecord(Path file) throws Exception {
        try (LogReader reader = LogReader.open(file)) {
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                if (r.event() instanceof dev.weft.log.Event.End) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Cuts third-party wording (decoder and JSON parser messages) that the spec marks [informative]. */
    static String normalizeInformative(String stderr) {
        for (String marker : new String[] {"I/O error: ", "malformed record: "}) {
            int at = stderr.indexOf(marker);
            if (at >= 0) {
                return stderr.substring(0, at + marker.length()) + "<informative>";
            }
        }
        return stderr;
    }

    private static long[] recordedDigest(Path file) throws Exception {
        long digest = Fnv1a.OFFSET_BASIS;
        long n = 0;
        try (LogReader reader = LogReader.open(file)) {
            LogRecord r;
            while ((r = reader.next()) != null) {
                digest = CanonicalJson.hashRecord(digest, r.op(), r.vt(), r.event());
                n++;
            }
        }
        return new long[] {n, digest};
    }

    private static String head(String s) {
        return s.length() > 400 ? s.substring(0, 400) + "…" : s;
    }

    static dev.weft.testsupport.CapturedRun runReplay(String[] args, Path workingDir) {
        return dev.weft.testsupport.CapturedRun.of((o, e) -> ReplayCommand.run(args, o, e, workingDir));
    }
}
