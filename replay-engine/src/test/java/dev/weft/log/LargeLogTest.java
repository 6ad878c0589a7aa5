package dev.weft.log;

import dev.weft.testcorpus.SharedCorpus;
import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The 999,914-record corpus log, read once through the gzip path (streaming, constant memory). */
class LargeLogTest {

    @Test
    void millionRecordGzipLogVerifies() throws Exception {
        Path log = SharedCorpus.conformance().resolve("large/bigflow-1m-fixed1000-s7.weftlog.gz");
        assertTrue(Files.isRegularFile(log), log.toString());
        JsonNode expected = SharedCorpus.sidecar(log).path("expected");
        try (LogReader r = LogReader.open(log)) {
            assertTrue(r.isGzip());
            long previousOffset = -1;
            LogRecord rec;
            while ((rec = r.next()) != null) {
                assertTrue(r.lastRecordOffset() > previousOffset);
                previousOffset = r.lastRecordOffset();
            }
            assertEquals(expected.path("ops").asLong(), r.recordsRead());
            assertEquals(expected.path("digest").asText(), Fnv1a.hex16(r.streamDigest()));
            assertTrue(r.sawEnd());
        }
    }
}
