package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RecordedRun reads back exactly what RunFiles and RunAssertions write: one owner per file of a run directory. */
class RecordedRunTest {

    @TempDir
    Path dir;

    @Test
    void aRunDirectoryReadsBackAsWritten() throws Exception {
        List<RunAssertions.Assertion> verdicts = List.of(new RunAssertions.Assertion("machine-ended-normally", true,
                "ending: powered-off"), new RunAssertions.Assertion("progress-resumes-after-failure", false, "0 after"));
        byte[] events = "{\"n\":0,\"p\":\"agent\",\"e\":\"boot\"}\n{\"n\":1,\"p\":\"agent\",\"e\":\"end\"}\n"
                .getBytes(StandardCharsets.UTF_8);
        byte[] assertions = Json.pretty(RunAssertions.toJson(verdicts)).getBytes(StandardCharsets.UTF_8);
        String digest = RunFiles.outcomeDigest("powered-off", events, assertions);
        RunFiles.write(dir, new RunFiles.Outcome(new byte[0], List.of(), events, assertions, false, 2, 1, 0, digest));
        Files.writeString(dir.resolve(RunFiles.MANIFEST), "{\"format\":\"simferret-run/1\",\"run_id\":\"sf-7-x\","
                + "\"identity\":{\"seed\":\"18446744073709551615\"}}\n");

        assertTrue(RecordedRun.isRunDirectory(dir));
        RecordedRun run = RecordedRun.read(dir);
        assertEquals(verdicts, run.assertions());
        assertEquals(List.of("{\"n\":0,\"p\":\"agent\",\"e\":\"boot\"}", "{\"n\":1,\"p\":\"agent\",\"e\":\"end\"}"),
                run.eventLines());
        assertEquals(digest.strip(), run.outcomeDigest());
        assertEquals(-1L, run.seed(), "the seed is an unsigned 64-bit number");
        assertEquals("sf-7-x", run.runId());
    }

    @Test
    void aManifestOfAnotherFormatIsRefusedByName() throws Exception {
        Files.writeString(dir.resolve(RunFiles.MANIFEST), "{\"format\":\"simferret-run/2\",\"identity\":{}}\n");
        assertFalse(RecordedRun.isRunDirectory(dir), "no events.jsonl");
        String why = assertThrows(RecordedRun.NotARun.class, () -> RecordedRun.read(dir)).getMessage();
        assertEquals(dir.resolve(RunFiles.MANIFEST) + ": not a simferret-run/1 manifest", why);
    }
}
