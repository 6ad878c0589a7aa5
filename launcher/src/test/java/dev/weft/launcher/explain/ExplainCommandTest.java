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

    /**
     * The committed Redis lost write (examples/recordings/redis-lost-write): the history beside the recording is
     * judged as the workbench judges it, and its finding is ranked with the others at the op the workbench opens on
     * (client 2's SMEMBERS, RedisLostWriteUiTest). Without the history the output is what it was.
     */
    @Test
    void theHistoryBesideTheRecordingIsRankedWithTheOtherFindings(@TempDir Path dir) throws Exception {
        Path with = dir.resolve("with"), without = dir.resolve("without"), bad = dir.resolve("bad");
        for (Path d : new Path[] {with, without, bad}) {
            Files.createDirectories(d);
            Files.copy(redisFixture().resolve("lost-write.weftlog.gz"), d.resolve("lost-write.weftlog.gz"));
        }
        Files.copy(redisFixture().resolve("lost-write.history.jsonl"), with.resolve("lost-write.history.jsonl"));
        Files.writeString(bad.resolve("lost-write.history.jsonl"), "{\"process\":0}\n");

        CapturedRun r = explain(with.resolve("lost-write.weftlog.gz").toString());
        assertEquals(ExplainCommand.FINDINGS, r.code(), r.err());
        assertEquals("", r.err());
        String[] lines = r.out().split("\n");
        assertTrue(lines[1].startsWith("   1. op 4983    history · history:set: The clients' history breaks the set model,"
                + " seen at op 4983: add 84 acknowledged at t=20753227109 ns, then a read invoked at t=22002900336 ns"
                + " does not contain 84"), r.out());
        assertEquals(r.out(), explain(with.resolve("lost-write.weftlog.gz").toString()).out(), "the same words every time");

        // the same recording alone: the same lines, less the history's (its rank and the headline's counts aside)
        CapturedRun alone = explain(without.resolve("lost-write.weftlog.gz").toString());
        assertTrue(!alone.out().contains("history"), alone.out());
        assertEquals(ranksDropped(alone.out()), ranksDropped(r.out().replace(with.toString(), without.toString()))
                .stream().filter(l -> !l.contains("history:set")).toList());

        CapturedRun j = explain(with.resolve("lost-write.weftlog.gz").toString(), "--json");
        String first = j.out().split("\n")[1];
        assertTrue(first.startsWith("{\"rank\":1,\"kind\":\"history\",\"invariant\":\"history:set\",\"op\":4983,"
                + "\"vt\":"), first);
        assertTrue(first.contains("\"origin\":\"checker\""), first);

        // a history that cannot be read: one line saying so, the recording's own findings as without one
        CapturedRun b = explain(bad.resolve("lost-write.weftlog.gz").toString());
        assertEquals(alone.code(), b.code());
        assertEquals("weft explain: history not judged: " + bad.resolve("lost-write.history.jsonl")
                + ":1: missing \"type\"\n", b.err());
        assertEquals(alone.out(), b.out().replace(bad.toString(), without.toString()));
    }

    /** The finding lines without their rank numbers, and the headline without its counts. */
    private static java.util.List<String> ranksDropped(String out) {
        return out.lines().skip(1).map(l -> l.replaceFirst("^ *\\d+\\. ", "")).toList();
    }

    private static Path redisFixture() {
        Path here = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(here.resolve("examples/recordings/redis-lost-write")) && here.getParent() != null) {
            here = here.getParent();
        }
        return here.resolve("examples/recordings/redis-lost-write");
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
