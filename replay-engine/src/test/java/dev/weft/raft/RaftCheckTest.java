package dev.weft.raft;

import static dev.weft.chord.TestRecords.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chord.TestRecords;
import dev.weft.log.LogRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class RaftCheckTest {

    /** RPT node date alive term role votedFor. */
    static String raft(int node, int alive, int term, int role) {
        return "RPT " + node + " 1 " + alive + " " + term + " " + role + " -1";
    }

    /** The crafted log of invariants-and-checkers.md §6. */
    static List<LogRecord> specExample() {
        return List.of(
                send(0, raft(0, 1, 1, 2)),
                send(1, raft(1, 1, 1, 0)),
                send(2, raft(1, 0, 1, 0)),
                send(3, raft(2, 1, 1, 2)),
                send(4, raft(2, 1, -3, 2)),
                send(5, raft(0, 1, 1, 2)),
                send(6, raft(1, 1, 1, 2)));
    }

    @Test
    void specExampleOutput() {
        RaftCheckResult r = RaftCheck.check(specExample());
        assertEquals(2, r.exitCode());
        assertEquals("""
                =============== RAFT ELECTION-SAFETY CHECK ===============
                recording : crafted.weftlog  (seed 5, net )
                reports   : 7 state reports, 1 crash-restarts
                term   -3  leaders: [2]
                term    1  leaders: [0, 2, 1]

                verdict   : VIOLATION \u2014 ElectionSafety broken
                  \u2717 term 1: leaders [0, 2] (second leader at op 3)
                ==========================================================
                """, r.render("crafted.weftlog", TestRecords.header(5, "")));
        assertEquals(List.of(new RaftViolation(1, 0, 2, 3)), r.violations());
    }

    @Test
    void noLeaderIsUninformative() {
        RaftCheckResult r = RaftCheck.check(List.of(send(0, raft(0, 1, 1, 1)), send(1, raft(1, 0, 1, 2))));
        assertEquals(3, r.exitCode());
        assertTrue(r.render("x", TestRecords.header(1, "n")).contains("""
                reports   : 2 state reports, 1 crash-restarts

                verdict   : DISCARD \u2014 no leader elected; seed uninformative
                """));
    }

    @Test
    void oneLeaderPerTermIsOk() {
        RaftCheckResult r = RaftCheck.check(List.of(send(0, raft(0, 1, 1, 2)), send(1, raft(1, 1, 2, 2)), send(2, raft(0, 1, 1, 2))));
        assertEquals(0, r.exitCode());
        assertTrue(r.render("x", TestRecords.header(1, "n")).contains("""
                term    1  leaders: [0]
                term    2  leaders: [1]

                verdict   : OK \u2014 at most one leader per term
                ==========================================================
                """));
    }

    @Test
    void deliveredReportsAreNotCounted() {
        RaftCheckResult r = RaftCheck.check(List.of(TestRecords.delivered(0, raft(0, 1, 1, 2))));
        assertEquals(0, r.reports());
        assertEquals(3, r.exitCode());
    }
}
