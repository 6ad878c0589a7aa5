package dev.weft.raft;

import static dev.weft.chord.TestRecords.send;
import static dev.weft.raft.RaftCheckTest.raft;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class RaftTimelineTest {

    @Test
    void rolesTermsAndElectionsOfTheSpecExample() {
        RaftTimeline t = RaftTimeline.build(RaftCheckTest.specExample());
        assertEquals(List.of(0, 1, 2), List.copyOf(t.nodes()));
        assertEquals(List.of(
                new RaftTimeline.Election(0, 1, 0),
                new RaftTimeline.Election(3, 1, 2),
                new RaftTimeline.Election(4, -3, 2),
                new RaftTimeline.Election(6, 1, 1)), t.elections());
        assertEquals(List.of(new RaftTimeline.Election(0, 1, 0)), t.electionsUpTo(2));
        assertEquals(2, t.electionsUpTo(3).size());
        assertEquals(List.of(), RaftTimeline.build(List.of()).electionsUpTo(100));
        assertEquals(-1, t.roleAt(2, 2));
        assertNull(t.termAt(2, 2));
        assertEquals(RaftReport.LEADER, t.roleAt(2, 3));
        assertEquals(1, t.termAt(2, 3));
        assertEquals(-3, t.termAt(2, 4));
        assertEquals(false, t.stateAt(1, 2).alive());
        assertEquals(RaftReport.LEADER, t.roleAt(1, 6));
        assertEquals(0, t.roleAt(1, 5));
        assertEquals(1, t.changeOps(0).length);    // the same report again at op 5 is not a change
        assertEquals(RaftCheck.check(RaftCheckTest.specExample()).violations(), t.violations());
    }

    @Test
    void deadLeaderReportIsNotAnElection() {
        RaftTimeline t = RaftTimeline.build(List.of(send(0, raft(0, 0, 4, 2)), send(1, raft(0, 1, 4, 2))));
        assertEquals(List.of(new RaftTimeline.Election(1, 4, 0)), t.elections());
    }
}
