package dev.weft.timeline;

import dev.weft.timeline.chord.ChordRingState;
import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ReportLogTest {

    static String hex(String s) {
        StringBuilder sb = new StringBuilder();
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) sb.append(String.format("%02x", b));
        return sb.toString();
    }

    @Test
    void parsesReportsAsTheSpecSays() {
        assertArrayEquals(new int[] {1, -2, 3, 4, 5, 6}, ReportLog.parse(hex("RPT 1 -2 +3 4 5 6 extra")));
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, -1}, ReportLog.parse(hex("RPT\t1\n2  3 4 5 -1")));
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, ReportLog.parse(hex("RPT 1 2 3 4 5 6").toUpperCase()));
        assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6}, ReportLog.parse(hex(" RPT 1 2 3 4 5 6")), "leading white space");
        assertNull(ReportLog.parse(hex("RPT 1 2 3 4 5")));
        assertNull(ReportLog.parse(hex("RPTX 1 2 3 4 5 6")));
        assertNull(ReportLog.parse(hex("RPT 1 2 3 4 5 2147483648")));
        assertNull(ReportLog.parse(hex("RPT 1 2 3 4 5 1.5")));
        assertNull(ReportLog.parse("52505420zz"));
        assertNull(ReportLog.parse("525054ff"));      // not UTF-8
        assertNull(ReportLog.parse(hex("PING")));
    }

    private static LogRecord send(int op, String text) {
        return new LogRecord(op, op, new Event.Send(0, VAddr.ofNode(0, 1), VAddr.ofNode(6, 9000), op, op, hex(text), SendOutcome.DROPPED), 0, 0);
    }

    @Test
    void chordSnapshotKeepsTheNewestDateAndDeathIsPermanent() {
        ReportLog.Builder b = new ReportLog.Builder();
        java.util.List<LogRecord> records = java.util.List.of(
                send(0, "RPT 10 5 1 20 30 40"),
                send(1, "RPT 10 3 1 21 31 41"),     // older date: ignored
                send(2, "RPT 20 1 0 10 -1 -1"),     // 20 dies
                send(3, "RPT 20 9 1 11 -1 -1"),     // ...and stays dead
                new LogRecord(4, 4, new Event.Connect(3), 0, 0));
        records.forEach(b::add);
        ReportLog log = b.build();
        assertEquals(4, log.size());
        assertEquals(2, log.countUpTo(1));
        // The ring view draws the engine's Chord snapshot: newest date wins, death is permanent.
        dev.weft.chord.ChordTimeline t = dev.weft.chord.ChordTimeline.build(records, 6);
        Map<Integer, dev.weft.chord.ChordReport> snap = ChordRingState.at(t, 3).nodes();
        assertEquals(new dev.weft.chord.ChordReport(10, 5, true, 20, 30, 40), snap.get(10));
        assertEquals(false, snap.get(20).alive());
        assertEquals(9, snap.get(20).date());
        assertEquals(1, ChordRingState.at(t, 0).nodes().size());
        assertEquals(false, log.allFit(dev.weft.protocol.Protocols.named("raft")), "succ2 = 30 in the role position");
        ReportLog raft = new ReportLog.Builder().add(send(0, "RPT 0 1 1 3 2 0")).add(send(1, "RPT 1 1 1 3 0 -1")).build();
        assertEquals(true, raft.allFit(dev.weft.protocol.Protocols.named("raft")));
    }
}
