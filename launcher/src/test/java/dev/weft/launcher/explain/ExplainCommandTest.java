package dev.weft.launcher.explain;

import dev.weft.testcorpus.SharedCorpus;
import dev.weft.testsupport.CapturedRun;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `weft explain` on the reference corpus: the protocol finding first, a clean recording says so, errors are one line. */
class ExplainCommandTest {

    private static CapturedRun explain(String... args) {
        return CapturedRun.of((out, err) -> ExplainCommand.run(args, out, err));
    }

    @Test
    void chordNoRingIsTheFirstLineAfterTheHeadline() {
        String log = SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog").toString();
        CapturedRun r = explain(log);
        assertEquals(ExplainCommand.FINDINGS, r.code(), r.err());
        String[] lines = r.out().split("\n");
        assertEquals(log + ": 31 findings in 3511 records, most severe first (Chord ring 1, per-channel FIFO 30)",
                lines[0]);
        assertTrue(lines[1].matches(" +1\\. op \\d+ +Chord ring · AtLeastOneRing: There is no ring.*to the end of the run\\)\\."), lines[1]);
        assertTrue(lines[2].matches(" +2\\. op \\d+ +per-channel FIFO · per-channel-fifo: .*"), lines[2]);
        assertEquals(32, lines.length);
        assertEquals(r.out(), explain(log).out(), "the same words every time");
    }

    @Test
    void raftElectionSafetyFirstAsJson() {
        String log = SharedCorpus.conformance().resolve("raft/raft-fix0-s131-violation.weftlog").toString();
        CapturedRun r = explain(log, "--json");
        assertEquals(ExplainCommand.FINDINGS, r.code(), r.err());
        String firstFinding = r.out().split("\n")[1];
        assertTrue(firstFinding.startsWith("{\"rank\":1,\"kind\":\"raft\",\"invariant\":\"ElectionSafety\",\"op\":243,"), firstFinding);
        assertTrue(firstFinding.contains("\"origin\":\"checker\""), firstFinding);
        assertTrue(r.out().startsWith("{\"log\":"), r.out());
        assertTrue(r.out().endsWith("\n]}\n"), r.out());
    }

    @Test
    void aCleanRecordingSaysSoAndExitsZero() {
        String log = SharedCorpus.conformance().resolve("pingpong/pp-fixed100-s1.weftlog").toString();
        CapturedRun r = explain(log);
        assertEquals(ExplainCommand.CLEAN, r.code(), r.err());
        assertTrue(r.out().startsWith(log + ": clean: no protocol violation"), r.out());
        assertEquals(1, r.out().split("\n").length);
        CapturedRun j = explain(log, "--json");
        assertEquals(ExplainCommand.CLEAN, j.code());
        assertTrue(j.out().contains("\"clean\":true,\"counts\":{},\"findings\":[]}"), j.out());
    }

    @Test
    void badInputIsOneLineNamingTheFile(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.weftlog");
        Files.writeString(bad, "not a log\n");
        CapturedRun r = explain(bad.toString());
        assertEquals(ExplainCommand.ERROR, r.code());
        assertEquals(1, r.err().split("\n").length, r.err());
        assertTrue(r.err().startsWith("weft explain: " + bad + ": "), r.err());
        assertEquals(ExplainCommand.ERROR, explain(dir.resolve("missing.weftlog").toString()).code());
        assertEquals(ExplainCommand.ERROR, explain().code());
        assertEquals(ExplainCommand.ERROR, explain("--frobnicate", bad.toString()).code());
    }
}
