package dev.weft.log;

import dev.weft.testcorpus.Corpus;
import dev.weft.testcorpus.OwnCorpus;
import dev.weft.testcorpus.SharedCorpus;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads every log of the reference corpus, and of our own, and checks the reader reaches the recorded verdict: logs the
 * reference reader accepts (replay exit 0, and also those that only fail later in replay: divergences,
 * windowed logs, unusable net specs) verify with the right op count and digest; the others are rejected
 * with the same error kind, at the same line or op, with the spec's fixed text.
 */
class CorpusReadTest {

    private static final Pattern MALFORMED = Pattern.compile("line (\\d+): malformed record: ");
    private static final Pattern CHAIN = Pattern.compile("integrity chain broken at op (\\d+): log truncated or edited");
    private static final Pattern OP_ORDER = Pattern.compile("op sequence broken: expected (\\d+), got (\\d+)");
    private static final Pattern FORMAT = Pattern.compile("not a weft-log file \\(format=.*\\)");
    private static final Pattern VERSION = Pattern.compile("unsupported weft-log version (\\d+) \\(this reader supports 2\\)");
    private static final Pattern IO = Pattern.compile(": I/O error: ");

    @TestFactory
    Stream<DynamicTest> everyCorpusLogGetsTheReferenceVerdict() {
        List<Path> logs = SharedCorpus.allLogs();
        assertTrue(logs.size() > 50, "corpus found: " + logs.size());
        return inEveryMode(SharedCorpus.corpus(), logs.stream()
                .filter(p -> !SharedCorpus.relative(p).startsWith("large/"))); // LargeLogTest reads that one
    }

    /** The same verdicts on our own corpus (always present): what our tools gave when each log was made. */
    @TestFactory
    Stream<DynamicTest> everyLogOfOurOwnCorpusGetsItsPinnedVerdict() {
        Corpus own = OwnCorpus.corpus();
        List<Path> logs = own.allLogs();
        assertTrue(logs.size() >= 30, "own corpus found: " + logs.size());
        assertTrue(logs.stream().filter(p -> own.relative(p).startsWith("negative/neg-")).count() >= 10,
                "negative cases in the own corpus");
        return inEveryMode(own, logs.stream());
    }

    private static Stream<DynamicTest> inEveryMode(Corpus corpus, Stream<Path> logs) {
        return logs.flatMap(p -> Stream.of(
                DynamicTest.dynamicTest(corpus.relative(p), () -> check(p, 0)),
                DynamicTest.dynamicTest(corpus.relative(p) + " (hash ahead)", () -> check(p, 1)),
                DynamicTest.dynamicTest(corpus.relative(p) + " (background, hash ahead)", () -> check(p, 2))));
    }

    /** Mode 0: everything on the calling thread; 1: chain hashed ahead on a helper; 2: plus background parsing. */
    private static LogReader open(Path log, int mode) throws WeftLogException {
        return LogReader.open(log, mode == 2, mode >= 1);
    }

    private static void check(Path log, int mode) throws Exception {
        JsonNode side = SharedCorpus.sidecar(log);
        String stderr = side.path("replay").path("stderr").asText("");
        String firstLine = stderr.isEmpty() ? "" : stderr.lines().findFirst().orElse("");
        Matcher m;
        if ((m = MALFORMED.matcher(firstLine)).find()) {
            WeftLogException e = readExpectingError(log, mode);
            assertEquals(WeftLogException.Kind.MALFORMED, e.kind(), e.getMessage());
            long line = Long.parseLong(m.group(1));
            assertEquals(line, e.line());
            assertTrue(e.getMessage().startsWith("line " + line + ": malformed record: "), e.getMessage());
        } else if ((m = CHAIN.matcher(firstLine)).find()) {
            WeftLogException e = readExpectingError(log, mode);
            assertEquals(WeftLogException.Kind.CHAIN_BROKEN, e.kind(), e.getMessage());
            assertEquals(Long.parseLong(m.group(1)), e.op());
            assertEquals(m.group(), e.getMessage());
        } else if ((m = OP_ORDER.matcher(firstLine)).find()) {
            WeftLogException e = readExpectingError(log, mode);
            assertEquals(WeftLogException.Kind.BAD_OP_ORDER, e.kind(), e.getMessage());
            assertEquals(Long.parseLong(m.group(1)), e.op());
            assertEquals(m.group(), e.getMessage());
        } else if ((m = FORMAT.matcher(firstLine)).find()) {
            WeftLogException e = readExpectingError(log, mode);
            assertEquals(WeftLogException.Kind.WRONG_FORMAT, e.kind(), e.getMessage());
            assertEquals(m.group(), e.getMessage());
        } else if ((m = VERSION.matcher(firstLine)).find()) {
            WeftLogException e = readExpectingError(log, mode);
            assertEquals(WeftLogException.Kind.UNSUPPORTED_VERSION, e.kind(), e.getMessage());
            assertEquals(m.group(), e.getMessage());
        } else if (IO.matcher(firstLine).find()) {
            WeftLogException e = readExpectingError(log, mode);
            assertEquals(WeftLogException.Kind.IO, e.kind(), e.getMessage());
            assertTrue(e.getMessage().startsWith("I/O error: "), e.getMessage());
        } else {
            // Accepted by the reference reader (any later failure is the replayer's business).
            JsonNode expected = side.path("expected");
            long ops = side.path("replay").path("exit_code").asInt(-1) == 0
                    ? expected.path("ops").asLong()
                    : nonEmptyRecordLines(log);
            try (LogReader r = open(log, mode)) {
                assertEquals(log.getFileName().toString().endsWith(".gz"), r.isGzip());
                long n = r.verifyAll();
                assertEquals(ops, n);
                if (expected.has("digest")) {
                    assertEquals(expected.path("digest").asText(), Fnv1a.hex16(r.streamDigest()));
                }
                assertEquals(side.path("facts").path("header").path("seed").asLong(), r.header().seed());
            }
        }
    }

    private static WeftLogException readExpectingError(Path log, int mode) {
        return assertThrows(WeftLogException.class, () -> {
            try (LogReader r = open(log, mode)) {
                r.verifyAll();
            }
        });
    }

    private static long nonEmptyRecordLines(Path log) throws Exception {
        String text = new String(SharedCorpus.text(log), StandardCharsets.UTF_8);
        long n = text.lines().skip(1).filter(l -> !l.isEmpty()).count();
        assertFalse(n == 0);
        return n;
    }
}
