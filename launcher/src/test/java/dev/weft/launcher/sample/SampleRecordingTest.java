package dev.weft.launcher.sample;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bundled sample (README's first command) is made by our own fuzzer and writer. Regenerating it from its config
 * must give the committed bytes (same seed ⇒ identical bytes), and it must replay with its violations.
 */
class SampleRecordingTest {

    private static final Path SAMPLES = Path.of("..", "examples", "recordings");

    @TempDir
    Path out;

    private static int weft(ByteArrayOutputStream stdout, String... args) {
        try (PrintStream o = new PrintStream(stdout, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)) {
            return WeftCli.run(args, o, e);
        }
    }

    @Test
    void regeneratingTheSampleGivesTheCommittedBytes() throws Exception {
        int code = weft(new ByteArrayOutputStream(), "fuzz", "--config", SAMPLES.resolve("sample-fuzz.json").toString(),
                "--out", out.toString());
        assertEquals(2, code, "the sample config must find violations");
        byte[] regenerated = Files.readAllBytes(
                out.resolve("repro-seed3-per-channel-fifo-on-127-0-0-1-100-127-0-0-2-100.weftlog"));
        assertArrayEquals(Files.readAllBytes(SAMPLES.resolve("sample.weftlog")), regenerated);
    }

    @Test
    void theSampleReplaysIdenticallyAndShowsItsViolations() {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        int code = weft(stdout, "replay", SAMPLES.resolve("sample.weftlog").toString(), "--check", "fifo,dup");
        String text = stdout.toString(StandardCharsets.UTF_8);
        assertEquals(2, code, text);
        assertTrue(text.startsWith("replay identical: 205 op(s), stream digest "), text);
        assertTrue(text.endsWith("22 invariant violation(s)\n"), text);
    }
}
