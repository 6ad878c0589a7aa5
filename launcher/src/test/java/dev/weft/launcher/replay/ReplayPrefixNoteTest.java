package dev.weft.launcher.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.testsupport.CapturedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recording without its end record (a crashed recorder, a cut file) replays as a prefix and says so on stderr. */
class ReplayPrefixNoteTest {

    private static final Path SAMPLE = Path.of("..", "examples", "recordings", "sample.weftlog");

    private static CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    @Test
    void aCompleteRecordingHasNoNote() {
        CapturedRun r = weft("replay", SAMPLE.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("", r.err());
    }

    @Test
    void aRecordingCutBeforeItsEndRecordIsNamedAPrefix(@TempDir Path dir) throws Exception {
        List<String> lines = Files.readAllLines(SAMPLE);
        Path cut = dir.resolve("cut.weftlog");
        Files.write(cut, lines.subList(0, lines.size() - 1)); // drop the end record, keep whole lines
        CapturedRun r = weft("replay", cut.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("replay identical: " + (lines.size() - 2) + " op(s)"), r.out());
        assertEquals(ReplayCommand.PREFIX_NOTE.formatted(cut.toString()), r.err());
    }

    @Test
    void untilIsAPrefixByRequestAndHasNoNote(@TempDir Path dir) {
        CapturedRun r = weft("replay", SAMPLE.toString(), "--until", "5");
        assertEquals("", r.err());
    }
}
