package dev.weft.chord;

import static dev.weft.chord.TestRecords.chord;
import static dev.weft.chord.TestRecords.connect;
import static dev.weft.chord.TestRecords.delivered;
import static dev.weft.chord.TestRecords.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChordTimelineTest {

    @Test
    void changeSeriesAnswersTheLastChangeAtOrBeforeOp() {
        ChangeSeries<String> s = new ChangeSeries<>();
        assertNull(s.at(5));
        s.append(3, "a");
        s.append(3, "b");       // same op replaces
        s.append(10, "c");
        s.append(-1L, "max");   // u64 max sorts last
        assertNull(s.at(2));
        assertEquals("b", s.at(3));
        assertEquals("b", s.at(9));
        assertEquals("c", s.at(10));
        assertEquals("c", s.at(Long.MAX_VALUE));
        assertEquals("max", s.at(-1L));
        assertEquals(3, s.size());
        assertThrows(IllegalArgumentException.class, () -> s.append(4, "late"));
    }

    private static List<LogRecord> randomRun(long seed, int n) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] idents = {1, 4, 22, 25, 43, 46};
        List<LogRecord> rs = new ArrayList<>();
        for (int op = 0; op < n; op++) {
            int kind = rnd.nextInt(10);
            int id = idents[rnd.nextInt(idents.length)];
            int succ = rnd.nextInt(8) == 0 ? -1 : idents[rnd.nextInt(idents.length)];
            int succ2 = rnd.nextInt(4) == 0 ? -1 : idents[rnd.nextInt(idents.length)];
            String report = chord(id, rnd.nextInt(op + 1), rnd.nextInt(40) == 0 ? 0 : 1, succ, succ2, -1);
            rs.add(kind == 0 ? connect(op) : kind == 1 ? delivered(op, report) : send(op, report));
        }
        return rs;
    }

    /** Property: after every op the timeline equals a fresh chord-check over the records up to that op. */
    @Test
    void everyOpMatchesAFreshCheckOfThePrefix() {
        for (long seed = 1; seed <= 20; seed++) {
            List<LogRecord> rs = randomRun(seed, 150);
            ChordTimeline t = ChordTimeline.build(rs, 6);
            ChordCheck prefix = new ChordCheck(6);
            for (LogRecord r : rs) {
                prefix.accept(r);
                ChordCheckResult expected = prefix.result();
                assertEquals(expected.snapshot().states(), t.snapshotAt(r.op()), "seed " + seed + " op " + r.op());
                assertEquals(expected.snapshot().ringMembers(), t.ringMembersAt(r.op()));
                if (!t.snapshotAt(r.op()).isEmpty()) assertEquals(expected.violations(), t.violationsAt(r.op()));
                for (int id : expected.snapshot().states().keySet()) {
                    assertEquals(expected.snapshot().get(id), t.nodeAt(id, r.op()));
                }
            }
        }
    }

    @Test
    void firstBrokenIsTheFirstOpWhereTheInvariantFailed() {
        List<LogRecord> rs = List.of(
                send(0, chord(1, 1, 1, 43, -1, -1)),      // no ring yet: AtLeastOneRing broken
                send(1, chord(43, 1, 1, 1, -1, -1)),      // ring [1, 43]
                send(2, chord(22, 1, 1, 25, -1, -1)),     // 22 cannot reach the ring
                send(3, chord(22, 2, 1, 43, -1, -1)));    // repaired
        ChordTimeline t = ChordTimeline.build(rs, 6);
        assertEquals(OptionalLong.of(0), t.firstBroken("AtLeastOneRing"));
        assertEquals(OptionalLong.of(2), t.firstBroken("ConnectedAppendages"));
        assertEquals(OptionalLong.empty(), t.firstBroken("OrderedRing"));
        assertEquals(List.of("AtLeastOneRing", "ConnectedAppendages"), List.copyOf(t.firstBroken().keySet()));
        assertEquals(List.of(), t.violationsAt(1));
        assertEquals(1, t.violationsAt(2).size());
        assertEquals(List.of(), t.violationsAt(3));
        assertEquals(List.of(0L, 1L, 2L, 3L), t.evaluationChangeOps());
        assertEquals(List.of(1, 22, 43), List.copyOf(t.idents()));
        assertTrue(t.changeOps(22).length == 2 && t.changeOps(22)[1] == 3);
        assertNull(t.nodeAt(22, 1));
        assertEquals(4, t.recordCount());
    }
}
