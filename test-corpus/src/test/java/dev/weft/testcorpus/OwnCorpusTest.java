package dev.weft.testcorpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The committed corpus is consistent with itself: every log has a sidecar whose recorded sha256 is the file's (a log
 * regenerated without its sidecar, or edited by hand, fails here before any replay test is puzzled by it), and
 * INDEX.tsv lists exactly the sidecars.
 */
class OwnCorpusTest {

    private final Corpus own = OwnCorpus.corpus();

    @Test
    void everyLogHasASidecarThatKnowsItsBytes() throws IOException {
        List<Path> logs = own.allLogs();
        assertTrue(logs.size() >= 30, "own corpus logs: " + logs.size());
        for (Path log : logs) {
            Path sidecar = log.resolveSibling(log.getFileName() + ".expect.json");
            assertTrue(Files.isRegularFile(sidecar), "no sidecar for " + own.relative(log));
            JsonNode side = SharedCorpus.readJson(sidecar);
            assertEquals(own.relative(log), side.get("log").asText(), "sidecar's log name");
            assertEquals(side.get("facts").get("sha256").asText(), Corpus.sha256(Files.readAllBytes(log)),
                    own.relative(log) + " changed without its sidecar (test-corpus/regenerate.py writes both)");
        }
        assertEquals(logs.size(), own.sidecars().size(), "sidecars without a log");
    }

    @Test
    void theIndexListsEverySidecar() throws IOException {
        List<String> indexed = Files.readAllLines(own.resolve("INDEX.tsv")).stream().skip(1)
                .map(line -> line.split("\t", -1)[0]).sorted().collect(Collectors.toList());
        List<String> logs = own.allLogs().stream().map(own::relative).sorted().collect(Collectors.toList());
        assertEquals(logs, indexed);
    }
}
