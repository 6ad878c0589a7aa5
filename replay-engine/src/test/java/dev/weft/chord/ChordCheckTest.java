package dev.weft.chord;

import static dev.weft.chord.TestRecords.chord;
import static dev.weft.chord.TestRecords.connect;
import static dev.weft.chord.TestRecords.delivered;
import static dev.weft.chord.TestRecords.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.LogRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChordCheckTest {

    private static ChordSnapshot snapshot(ChordReport... reports) {
        ChordSnapshot s = new ChordSnapshot();
        for (ChordReport r : reports) s.observe(r);
        return s;
    }

    private static ChordReport live(int id, int succ, int succ2, int prdc) {
        return new ChordReport(id, 1, true, succ, succ2, prdc);
    }

    private static ChordReport dead(int id) {
        return new ChordReport(id, 1, false, -1, -1, -1);
    }

    /** Checks {@code s} (ring of 2^6) finds exactly {@code expected}, each "Invariant: message", in order. */
    private static void assertViolations(ChordSnapshot s, String... expected) {
        List<ChordViolation> violations = new ArrayList<>();
        for (String e : expected) {
            int colon = e.indexOf(": ");
            violations.add(new ChordViolation(e.substring(0, colon), e.substring(colon + 2)));
        }
        assertEquals(violations, ChordInvariants.check(s, 6));
    }

    @Test
    void observeKeepsNewestDateAndDeathIsPermanent() {
        ChordSnapshot s = new ChordSnapshot();
        s.observe(new ChordReport(5, 10, true, 1, 2, 3));
        s.observe(new ChordReport(5, 9, true, 7, 7, 7));      // older: ignored
        assertEquals(new ChordReport(5, 10, true, 1, 2, 3), s.get(5));
        s.observe(new ChordReport(5, 10, true, 4, 4, 4));     // same date: replaces
        assertEquals(4, s.get(5).succ());
        s.observe(new ChordReport(5, 11, false, 4, 4, 4));
        s.observe(new ChordReport(5, 12, true, 6, 6, 6));     // newer but the node died: fields taken, stays dead
        assertEquals(new ChordReport(5, 12, false, 6, 6, 6), s.get(5));
        s.observe(new ChordReport(8, 1, false, 1, 1, 1));     // first report already dead
        assertFalse(s.isLive(8));
        assertEquals(List.of(5, 8), s.dead().stream().map(ChordReport::ident).toList());
    }

    @Test
    void bestSuccessorFallsBackToSecondSuccessor() {
        ChordSnapshot s = snapshot(live(1, 22, 43, -1), dead(22), live(43, 1, 1, 1));
        assertEquals(43, s.bestSucc(s.get(1)));
        assertEquals(-1, s.bestSuccOf(22));
        assertEquals(-1, s.bestSuccOf(99));
        assertFalse(s.isLive(-1));
        assertEquals(List.of(1, 43), s.ringMembers());
    }

    @Test
    void healthyRingHoldsEveryInvariant() {
        ChordSnapshot s = snapshot(live(1, 22, 43, 43), live(22, 43, 1, 1), live(43, 1, 22, 22), live(30, 43, -1, -1));
        assertEquals(List.of(1, 22, 43), s.ringMembers());
        assertEquals(List.of(1, 22, 43), s.cycleOf(1));
        assertTrue(ChordInvariants.check(s, 6).isEmpty());
    }

    @Test
    void noRingReportsOnlyAtLeastOneRing() {
        ChordSnapshot s = snapshot(live(1, 25, -1, -1), live(22, 1, 1, -1), dead(25));
        assertViolations(s, "AtLeastOneRing: no ring member: the best-successor graph has no cycle");
    }

    @Test
    void twoRingsAreASplitAndOutOfOrder() {
        ChordSnapshot s = snapshot(live(1, 22, -1, -1), live(22, 1, -1, -1), live(43, 46, -1, -1), live(46, 43, -1, -1));
        assertViolations(s,
                "AtMostOneRing: ring split: 4 ring members but the cycle through 1 has 2",
                "OrderedRing: ring member 43 lies between adjacent 22 -> 1",
                "OrderedRing: ring member 46 lies between adjacent 22 -> 1",
                "OrderedRing: ring member 1 lies between adjacent 46 -> 43",
                "OrderedRing: ring member 22 lies between adjacent 46 -> 43");
    }

    @Test
    void misorderedRingAndStrandedAppendage() {
        ChordSnapshot s = snapshot(live(1, 43, -1, -1), live(43, 22, -1, -1), live(22, 1, -1, -1),
                live(4, 25, -1, -1), live(9, 4, -1, -1), live(10, 43, -1, -1));
        assertViolations(s,
                "OrderedRing: ring member 22 lies between adjacent 1 -> 43",
                "OrderedRing: ring member 43 lies between adjacent 22 -> 1",
                "OrderedRing: ring member 1 lies between adjacent 43 -> 22",
                "ConnectedAppendages: appendage member 4 cannot reach the ring via best successors",
                "ConnectedAppendages: appendage member 9 cannot reach the ring via best successors");
    }

    @Test
    void betweenOnTheRing() {
        assertTrue(ChordInvariants.between(1, 22, 43, 6));
        assertFalse(ChordInvariants.between(1, 43, 22, 6));
        assertTrue(ChordInvariants.between(60, 2, 5, 6));       // wraps past 0
        assertTrue(ChordInvariants.between(60, 61, 5, 6));
        assertFalse(ChordInvariants.between(60, 30, 5, 6));
        assertTrue(ChordInvariants.between(-1, 0, 1, 6));       // -1 is 63
        assertTrue(ChordInvariants.between(1, 66, 3, 6));       // 66 is 2
        assertFalse(ChordInvariants.between(1, 2, 3, 64));      // 1 << 64 is 1 << 0: everything is 0
        assertTrue(ChordInvariants.between(1, 2, 3, 63));       // negative modulus, as the reference
        assertEquals(Long.MAX_VALUE, ChordInvariants.remEuclid(-1, Long.MIN_VALUE));
    }

    @Test
    void failureAssumptionBreaksWhenBothSuccessorsDied() {
        FailureAssumption fa = new FailureAssumption();
        fa.offer(0, live(1, 22, 43, -1));
        fa.offer(1, live(22, 43, 1, -1));
        fa.offer(2, dead(43));
        assertTrue(fa.held());
        fa.offer(3, dead(22));
        assertFalse(fa.held());
        assertEquals(3, fa.violatedAtOp());
    }

    @Test
    void failureAssumptionIgnoresNodesWithoutSuccessorsOnlyIfTheyAreDead() {
        FailureAssumption fa = new FailureAssumption();
        fa.offer(0, live(1, -1, -1, -1));
        fa.offer(1, dead(1));          // the dying node itself is skipped
        assertTrue(fa.held());
        fa.offer(2, live(5, -1, 7, -1));
        fa.offer(3, dead(9));
        assertTrue(fa.held());
        fa.offer(4, live(6, -1, -1, -1));
        fa.offer(5, dead(9));
        assertFalse(fa.held());
    }

    private static List<LogRecord> healthyButDiscarded() {
        List<LogRecord> rs = new ArrayList<>();
        rs.add(connect(0));
        rs.add(send(1, chord(1, 1, 1, 22, 43, 43)));
        rs.add(send(2, chord(22, 1, 1, 43, 1, 1)));
        rs.add(send(3, chord(43, 1, 1, 1, 22, 22)));
        rs.add(send(4, chord(4, 1, 1, 25, 46, 43)));
        rs.add(send(5, chord(25, 1, 0, -1, -1, -1)));
        rs.add(send(6, chord(46, 1, 0, -1, -1, -1)));
        rs.add(delivered(7, chord(4, 2, 1, 1, 22, 43)));   // delivered reports feed the final snapshot only
        rs.add(send(8, "not a report"));
        return rs;
    }

    @Test
    void renderMatchesTheReferenceLayoutAndDiscardWins() {
        ChordCheckResult r = ChordCheck.check(healthyButDiscarded(), 6);
        assertEquals(3, r.exitCode());
        assertEquals("""
                =============== CHORD FINAL-STATE CHECK ===============
                recording : some/x.weftlog  (seed 18446744073709551615, net )
                ring members: [1, 22, 43]
                  node   1: succ= 22 succ2= 43 prdc= 43 bestSucc= 22 [ring]
                  node   4: succ=  1 succ2= 22 prdc= 43 bestSucc=  1 [appendage]
                  node  22: succ= 43 succ2=  1 prdc=  1 bestSucc= 43 [ring]
                  node  43: succ=  1 succ2= 22 prdc= 22 bestSucc=  1 [ring]
                  node  25: FAILED
                  node  46: FAILED
                assumption: papers' failure precondition VIOLATED (seed invalid)

                verdict   : DISCARD \u2014 failure assumption violated by the scenario
                =======================================================
                """, r.render("some/x.weftlog", TestRecords.header(-1, "")));
    }

    @Test
    void violationVerdictListsEachViolation() {
        List<LogRecord> rs = List.of(send(0, chord(1, 1, 1, 43, -1, -1)), send(1, chord(43, 1, 1, 22, -1, -1)),
                send(2, chord(22, 1, 1, 1, -1, -1)), send(3, chord(7, 1, 1, 1000, -1, -1)));
        ChordCheckResult r = ChordCheck.check(rs, 6);
        assertEquals(2, r.exitCode());
        String out = r.render("x", TestRecords.header(3, "loss=0.1"));
        assertTrue(out.contains("recording : x  (seed 3, net loss=0.1)\n"), out);
        assertTrue(out.endsWith("""
                assumption: papers' failure precondition HELD at every failure

                verdict   : VIOLATION \u2014 still violated after the quiescent repair tail (unrepairable per Zave for these invariants)
                  \u2717 OrderedRing : ring member 22 lies between adjacent 1 -> 43
                  \u2717 OrderedRing : ring member 43 lies between adjacent 22 -> 1
                  \u2717 OrderedRing : ring member 1 lies between adjacent 43 -> 22
                  \u2717 ConnectedAppendages : appendage member 7 cannot reach the ring via best successors
                =======================================================
                """), out);
        assertTrue(out.contains("  node   7: succ=1000 succ2= -1 prdc= -1 bestSucc= -1 [appendage]\n"), out);
    }

    @Test
    void okVerdict() {
        List<LogRecord> rs = List.of(send(0, chord(1, 1, 1, 43, -1, -1)), send(1, chord(43, 1, 1, 1, -1, -1)));
        ChordCheckResult r = ChordCheck.check(rs, 6);
        assertEquals(0, r.exitCode());
        assertTrue(r.render("x", TestRecords.header(0, "n")).contains("\nverdict   : OK \u2014 all correctness invariants hold\n"));
    }
}
