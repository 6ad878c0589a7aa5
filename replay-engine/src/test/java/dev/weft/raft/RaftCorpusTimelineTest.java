package dev.weft.raft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chord.CorpusLogs;
import dev.weft.log.LogRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** On every corpus Raft log, the timeline's elections are exactly raft-check's leaders and violations. */
class RaftCorpusTimelineTest {

    @TestFactory
    List<DynamicTest> electionsAgreeWithTheCheckOnEveryRaftLog() {
        return CorpusLogs.perLog("raft_check", 7, RaftCorpusTimelineTest::agree);
    }

    /** The same over our own corpus (always present). */
    @TestFactory
    List<DynamicTest> electionsAgreeWithTheCheckOnEveryRaftLogOfOurOwnCorpus() {
        return CorpusLogs.perLog(dev.weft.testcorpus.OwnCorpus.dir(), "raft_check", 3, RaftCorpusTimelineTest::agree);
    }

    private static void agree(Path log, List<LogRecord> records) throws Exception {
        RaftTimeline t = RaftTimeline.build(records);
        RaftCheckResult check = RaftCheck.check(records);
        Map<Integer, List<Integer>> leaders = new TreeMap<>();
        for (RaftTimeline.Election e : t.elections()) {
            leaders.computeIfAbsent(e.term(), k -> new ArrayList<>()).add(e.node());
            assertEquals(RaftReport.LEADER, t.roleAt(e.node(), e.op()));
            assertEquals(e.term(), t.termAt(e.node(), e.op()));
        }
        assertEquals(check.leadersByTerm(), leaders);
        assertEquals(check.violations(), t.violations());
        for (RaftViolation v : check.violations()) {
            assertTrue(t.elections().contains(new RaftTimeline.Election(v.op(), v.term(), v.second())), v.toString());
        }
    }
}
