package dev.weft.app.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 26 items 5 and 9: the run panel's words and checks. */
class RunFormWordsTest {

    @Test
    void exitThreeIsADiscardOnlyInAWindowedRun() {
        assertEquals("windowed run discarded", RunSession.meaning(3, false, true));
        assertTrue(RunSession.meaning(3, false, false).startsWith("a node exited 3"), RunSession.meaning(3, false, false));
    }

    @Test
    void exitFourNamesTheDeadlockVerdict() {
        // a what-if that drops a Chord GO ends so: "a node exited 4" said nothing of what weft run found
        assertTrue(RunSession.meaning(4, false, true).startsWith("the deadlock verdict"), RunSession.meaning(4, false, true));
    }

    @Test
    void aNewSeedRenamesARecordingNamedAfterTheOldOne() {
        assertEquals("/tmp/chord-s4.weftlog", RunRequest.recordForSeed("/tmp/chord-s3.weftlog", "3", "4"));
        assertEquals("run_s10.weftlog.gz", RunRequest.recordForSeed("run_s9.weftlog.gz", "9", "10"));
        assertEquals("s7.weftlog", RunRequest.recordForSeed("s6.weftlog", "6", "7"));
        assertEquals("/tmp/mine.weftlog", RunRequest.recordForSeed("/tmp/mine.weftlog", "3", "4"), "other names are kept");
        assertEquals("/tmp/chords3x.weftlog", RunRequest.recordForSeed("/tmp/chords3x.weftlog", "3", "4"));
        assertEquals("/tmp/run-s31.weftlog", RunRequest.recordForSeed("/tmp/run-s31.weftlog", "3", "4"), "s31 is not s3");
    }

    @Test
    void garbageInTheProgramFieldIsFlagged(@TempDir Path dir) throws Exception {
        Path tool = Files.createFile(dir.resolve("tool"));
        Path text = Files.createFile(dir.resolve("notes.txt"));
        assertTrue(tool.toFile().setExecutable(true));
        assertNull(RunRequest.programNotFound(tool.toString(), ""));
        assertNull(RunRequest.programNotFound("tool", "/nonexistent:" + dir));
        assertEquals("no such file: ./nope/x", RunRequest.programNotFound("./nope/x", dir.toString()));
        assertEquals("not an executable file: " + text, RunRequest.programNotFound(text.toString(), ""));
        assertEquals("\"asdf qwer\" is not on PATH: give its path (Browse…)", RunRequest.programNotFound("asdf qwer", dir.toString()));
    }
}
