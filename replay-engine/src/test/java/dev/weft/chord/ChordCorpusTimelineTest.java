package dev.weft.chord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.LogRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** On every corpus Chord log, the timeline agrees with chord-check at the end and with a replayed prefix anywhere. */
class ChordCorpusTimelineTest {

    @TestFactory
    List<DynamicTest> timelineAgreesWithTheCheckOnEveryChordLog() {
        return CorpusLogs.perLog("chord_check", 15, ChordCorpusTimelineTest::agree);
    }

    /** The same over our own corpus (always present). */
    @TestFactory
    List<DynamicTest> timelineAgreesWithTheCheckOnEveryChordLogOfOurOwnCorpus() {
        return CorpusLogs.perLog(dev.weft.testcorpus.OwnCorpus.dir(), "chord_check", 3, ChordCorpusTimelineTest::agree);
    }

    private static void agree(Path log, List<LogRecord> records) throws Exception {
        ChordTimeline t = ChordTimeline.build(records, 6);
        ChordCheckResult end = ChordCheck.check(records, 6);
        long last = records.get(records.size() - 1).op();
        assertEquals(end.snapshot().states(), t.snapshotAt(last));
        assertEquals(end.snapshot().ringMembers(), t.ringMembersAt(last));
        assertEquals(end.violations(), t.violationsAt(last));
        for (ChordViolation v : end.violations()) {
            assertTrue(t.firstBroken(v.invariant()).isPresent(), v.toString());
        }
        // a few random ops: the timeline equals a check of the records up to that op
        SplittableRandom rnd = new SplittableRandom(log.getFileName().toString().hashCode());
        for (int k = 0; k < 3; k++) {
            int cut = rnd.nextInt(records.size());
            ChordCheckResult prefix = ChordCheck.check(records.subList(0, cut + 1), 6);
            assertEquals(prefix.snapshot().states(), t.snapshotAt(records.get(cut).op()), "op " + cut);
            assertEquals(prefix.snapshot().ringMembers(), t.ringMembersAt(records.get(cut).op()), "op " + cut);
        }
    }
}
