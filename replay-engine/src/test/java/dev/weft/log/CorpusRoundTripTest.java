package dev.weft.log;

import dev.weft.testcorpus.Corpus;
import dev.weft.testcorpus.OwnCorpus;
import dev.weft.testcorpus.SharedCorpus;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Re-serializing what we parsed reproduces the reference writer byte for byte, over every reference-written
 * log of the corpus, and our own writer's in our corpus (the edited copies in negative/ are not writer output, so
 * they are left out).
 */
class CorpusRoundTripTest {

    static List<Path> writtenLogs(Corpus corpus) {
        return corpus.allLogs().stream()
                .filter(p -> !corpus.relative(p).startsWith("negative/") && !corpus.relative(p).startsWith("large/"))
                .collect(Collectors.toList());
    }

    @TestFactory
    Stream<DynamicTest> canonPlusChainIsTheOriginalLine() {
        return canonPlusChainIsTheOriginalLine(SharedCorpus.corpus());
    }

    /** Our own recordings (our broker's and fuzzer's writer) round-trip the same way. */
    @TestFactory
    Stream<DynamicTest> canonPlusChainIsTheOriginalLineInOurOwnCorpus() {
        return canonPlusChainIsTheOriginalLine(OwnCorpus.corpus());
    }

    @TestFactory
    Stream<DynamicTest> rewritingWithLogWriterGivesTheSameFile() {
        return rewritingWithLogWriterGivesTheSameFile(SharedCorpus.corpus());
    }

    @TestFactory
    Stream<DynamicTest> rewritingWithLogWriterGivesTheSameFileInOurOwnCorpus() {
        return rewritingWithLogWriterGivesTheSameFile(OwnCorpus.corpus());
    }

    private static Stream<DynamicTest> canonPlusChainIsTheOriginalLine(Corpus corpus) {
        return writtenLogs(corpus).stream().map(p -> DynamicTest.dynamicTest(corpus.relative(p), () -> {
            String text = new String(SharedCorpus.text(p), StandardCharsets.UTF_8);
            List<String> lines = text.lines().collect(Collectors.toList());
            for (int i = 1; i < lines.size(); i++) {
                String line = lines.get(i);
                LogRecord r = LogReader.parseRecordLine(line, i + 1);
                String canon = CanonicalJson.record(r.op(), r.vt(), r.event());
                String rebuilt = canon.substring(0, canon.length() - 1) + ",\"chain\":\"" + Fnv1a.hex16(r.chain()) + "\"}";
                assertEquals(line, rebuilt, "line " + (i + 1));
            }
        }));
    }

    private static Stream<DynamicTest> rewritingWithLogWriterGivesTheSameFile(Corpus corpus) {
        return writtenLogs(corpus).stream().map(p -> DynamicTest.dynamicTest(corpus.relative(p), () -> {
            byte[] original = SharedCorpus.text(p);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (LogReader r = LogReader.open(p)) {
                LogHeader h = r.header();
                try (LogWriter w = LogWriter.create(out, false, h.seed(), h.net(), h.windowNs(), h.meta())) {
                    assertEquals(h.rawLine(), w.header().rawLine());
                    LogRecord rec;
                    while ((rec = r.next()) != null) {
                        LogRecord written = w.append(rec.vt(), rec.event());
                        assertEquals(rec.chain(), written.chain());
                        assertEquals(rec.op(), written.op());
                    }
                    assertEquals(r.recordsRead(), w.count());
                }
            }
            assertArrayEquals(original, out.toByteArray());
            JsonNode side = SharedCorpus.sidecar(p);
            assertEquals(side.path("facts").path("lines").asLong(), original.length == 0 ? 0
                    : new String(original, StandardCharsets.UTF_8).lines().count());
        }));
    }
}
