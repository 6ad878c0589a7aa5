package dev.weft.launcher.check;

import dev.weft.launcher.check.chord.ChordCheckCommand;
import dev.weft.launcher.check.chord.ChordTraceCommand;
import dev.weft.launcher.check.raft.RaftCheckCommand;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.check.CorpusCheckersTest.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CheckCommandsTest {

    private static String corpus(String relative) {
        return CorpusCheckersTest.conformance().resolve(relative).toString();
    }

    @Test
    void usageWithoutALog() {
        assertEquals(new Run(1, "", "usage: chord-check <recording.weftlog> [m-bits]\n"),
                CorpusCheckersTest.run(ChordCheckCommand::run));
        assertEquals(new Run(1, "", "usage: chord-trace <recording.weftlog> [m-bits]\n"),
                CorpusCheckersTest.run(ChordTraceCommand::run));
        assertEquals(new Run(1, "", "usage: raft-check <recording.weftlog>\n"), CorpusCheckersTest.run(RaftCheckCommand::run));
    }

    @Test
    void missingFileIsAnIoErrorNamingTheLog() {
        Run r = CorpusCheckersTest.run(RaftCheckCommand::run, "no/such.weftlog");
        assertEquals(1, r.exit());
        assertEquals("", r.stdout());
        assertTrue(r.stderr().startsWith("raft-check: no/such.weftlog: I/O error: "), r.stderr());
        Run bad = CorpusCheckersTest.run(ChordCheckCommand::run, "nul\0name");
        assertTrue(bad.stderr().startsWith("chord-check: nul\0name: I/O error: "), bad.stderr());
    }

    @Test
    void mBitsIsAU32OrSix() {
        assertEquals(6, ChordCheckCommand.mBits(new String[] {"x"}));
        assertEquals(7, ChordCheckCommand.mBits(new String[] {"x", "+7"}));
        assertEquals(4294967295L, ChordCheckCommand.mBits(new String[] {"x", "4294967295"}));
        assertEquals(6, ChordCheckCommand.mBits(new String[] {"x", "4294967296"}));
        assertEquals(6, ChordCheckCommand.mBits(new String[] {"x", "-1"}));
        assertEquals(6, ChordCheckCommand.mBits(new String[] {"x", " 7"}));
    }

    @Test
    void anyMArgumentIsAcceptedAndAnUnparsableOneMeansSix() {
        String log = corpus("chord/chord-fix0-s0.weftlog");
        Run six = CorpusCheckersTest.run(ChordCheckCommand::run, log, "6");
        assertEquals(0, six.exit());
        assertEquals(six, CorpusCheckersTest.run(ChordCheckCommand::run, log, "nonsense"));
        assertEquals(six, CorpusCheckersTest.run(ChordCheckCommand::run, log));
        assertEquals(0, CorpusCheckersTest.run(ChordCheckCommand::run, log, "1").exit());
    }

    @Test
    void outputIsUtf8WhateverThePrintStreamCharset() {
        Run r = CorpusCheckersTest.run(RaftCheckCommand::run, corpus("raft/raft-fix0-s18-violation.weftlog"), "ignored", "extra");
        assertEquals(2, r.exit());
        assertTrue(r.stdout().contains("verdict   : VIOLATION \u2014 ElectionSafety broken\n  \u2717 term "), r.stdout());
    }

    @Test
    void traceOfACorpusLogEndsWithTheFinalSnapshotOfTheCheck() {
        String log = corpus("chord/chord-fix0-s3.weftlog");
        Run trace = CorpusCheckersTest.run(ChordTraceCommand::run, log, "6");
        Run check = CorpusCheckersTest.run(ChordCheckCommand::run, log);
        assertEquals(0, trace.exit());
        assertTrue(trace.stdout().startsWith("=== CHORD STATE TRACE: " + log + " (seed 3) ===\nop "), trace.stdout());
        // the check's ring/node block (send + delivered reports) equals the trace's (send only) on this log
        String block = check.stdout().substring(check.stdout().indexOf("ring members:"), check.stdout().indexOf("assumption:"));
        assertTrue(trace.stdout().contains("--- final ---\n" + block), trace.stdout());
        assertTrue(trace.stdout().endsWith(" and never recovered through the quiescent tail.\n"), trace.stdout());
        assertTrue(Path.of(log).isAbsolute());
    }
}
