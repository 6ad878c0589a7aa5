package dev.weft.timeline;

import dev.weft.testsupport.SyntheticRun;
import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimelineModelTest {

    private static LogRecord r(int op, long vt, Event e) {
        return new LogRecord(op, vt, e, 0, 0);
    }

    @Test
    void lanesGroupConnectionsByNodeAndResolveConnectBeforeHello() {
        VAddr a = VAddr.ofNode(0, 100), b = VAddr.ofNode(1, 100);
        List<LogRecord> recs = List.of(
                r(0, 0, new Event.Connect(7)),                 // before its hello: must still land in node 1
                r(1, 0, new Event.Hello(7, 1)),
                r(2, 0, new Event.Connect(3)),
                r(3, 0, new Event.Hello(3, 0)),
                r(4, 0, new Event.Connect(4)),
                r(5, 0, new Event.Hello(4, 0)),                // second connection of node 0: same lane
                r(6, 0, new Event.Connect(9)),                 // never says hello: own lane
                r(7, 5, new Event.Send(7, b, a, 0, 0, "61", new SendOutcome.Enqueued(3, 5, 0))),
                r(8, 5, new Event.Send(9, b, a, 0, 0, "62", SendOutcome.DROPPED)),
                r(9, 5, new Event.Recv(3, false, new RecvOutcome.Delivered(b, a, 5, 0, "61"))),
                r(10, 5, new Event.Violation("x", "y")),
                r(11, 5, new Event.End(12, 2, 1)));
        TimelineModel m = TimelineModel.of(recs);
        assertEquals(List.of("node 0", "node 1", "conn 9", "run"), m.lanes().stream().map(Lane::label).toList());
        int[] expectLane = {1, 1, 0, 0, 0, 0, 2, 1, 2, 0, 3, 3};
        for (int op = 0; op < expectLane.length; op++) assertEquals(expectLane[op], m.lane(op), "lane of op " + op);
        assertEquals(9, m.partner(7));
        assertEquals(7, m.partner(9));
        assertEquals(TimelineModel.NO_PARTNER, m.partner(8));
        assertEquals(MarkKind.SEND_DROPPED, m.kind(8));
        assertEquals(MarkKind.RECV, m.kind(9));
        assertEquals(1, m.violationOps().length);
        assertEquals(10, m.violationOps()[0]);
    }

    @Test
    void aRecordAboutTheRunIsNamedByItsOwnWordNotAsAnEnd() {
        List<LogRecord> recs = List.of(
                r(0, 0, new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION)),
                r(1, 0, new Event.Connect(1)),
                r(2, 0, new Event.Hello(1, 0)),
                r(3, 5, new Event.Signal(0, "SIGTERM", "stopped")),
                r(4, 9, new Event.End(5, 0, 0)));
        TimelineModel m = TimelineModel.of(recs);
        assertEquals(MarkKind.END, m.kind(0), "drawn as a record about the run");
        assertEquals("ext", m.kindLabel(0));
        assertEquals("connect", m.kindLabel(1));
        assertEquals("signal", m.kindLabel(3));
        assertEquals("end", m.kindLabel(4));
        // A snapshot taken while loading names them too.
        TimelineModel.Builder b = new TimelineModel.Builder(2);
        b.add(recs.get(0));
        assertEquals("ext", b.snapshot().kindLabel(0));
    }

    @Test
    void rejectsRecordsOutOfOrder() {
        TimelineModel.Builder b = new TimelineModel.Builder(4);
        b.add(r(0, 0, new Event.Connect(0)));
        assertThrows(IllegalArgumentException.class, () -> b.add(r(2, 0, new Event.Connect(1))));
    }

    @Test
    void partnersMatchTiesOfEveryDeliveredSend() {
        for (long seed = 1; seed <= 20; seed++) {
            List<LogRecord> recs = SyntheticRun.generate(seed, 3, 2000);
            TimelineModel m = TimelineModel.of(recs);
            Map<Long, Integer> sendOfTie = new HashMap<>();
            for (LogRecord rec : recs) {
                if (rec.event() instanceof Event.Send s && s.outcome() instanceof SendOutcome.Enqueued q) sendOfTie.put(q.tie(), (int) rec.op());
            }
            for (LogRecord rec : recs) {
                int op = (int) rec.op();
                if (rec.event() instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d) {
                    int send = sendOfTie.get(d.tie());
                    assertEquals(send, m.partner(op));
                    assertEquals(op, m.partner(send));
                }
            }
        }
    }

    @Test
    void pyramidMasksEqualBruteForceOnThousandsOfRanges() {
        for (long seed = 1; seed <= 5; seed++) {
            TimelineModel m = TimelineModel.of(SyntheticRun.generate(seed, 2 + (int) seed, 5000 + (int) seed * 777));
            SplittableRandom rnd = new SplittableRandom(seed * 31);
            short[] fast = new short[m.laneCount()];
            short[] slow = new short[m.laneCount()];
            for (int i = 0; i < 2000; i++) {
                int a = rnd.nextInt(m.size() + 1);
                int len = rnd.nextInt(4) == 0 ? rnd.nextInt(m.size() + 1) : rnd.nextInt(100);
                int b = Math.min(m.size(), a + len);
                m.masksInRange(a, b, fast);
                java.util.Arrays.fill(slow, (short) 0);
                for (int op = a; op < b; op++) slow[m.lane(op)] |= (short) m.kind(op).bit();
                for (int l = 0; l < m.laneCount(); l++) assertEquals(slow[l], fast[l], "seed " + seed + " range " + a + ".." + b + " lane " + l);
            }
        }
    }

    @Test
    void vtLookupIsTheFirstOpAtOrAfter() {
        TimelineModel m = TimelineModel.of(SyntheticRun.generate(9, 3, 3000));
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 3000; i++) {
            long v = rnd.nextLong(m.vtMax() + 10);
            int expected = 0;
            while (expected < m.size() && m.vt(expected) < v) expected++;
            assertEquals(expected, m.firstOpNotBeforeVt(v));
        }
    }

    @Test
    void aMillionEventsFitInFortyBytesEach() {
        TimelineModel.Builder b = new TimelineModel.Builder(1 << 20);
        VAddr a = VAddr.ofNode(0, 1), c = VAddr.ofNode(1, 1);
        b.add(r(0, 0, new Event.Connect(0))).add(r(1, 0, new Event.Hello(0, 0)));
        b.add(r(2, 0, new Event.Connect(1))).add(r(3, 0, new Event.Hello(1, 1)));
        List<LogRecord> none = new ArrayList<>();
        for (int op = 4; op < 1_000_000; op += 2) {
            b.add(r(op, op, new Event.Send(0, a, c, op, op, "00", new SendOutcome.Enqueued(1, op, op))));
            b.add(r(op + 1, op, new Event.Recv(1, true, new RecvOutcome.Delivered(a, c, op, op, "00"))));
        }
        TimelineModel m = b.build();
        assertTrue(none.isEmpty());
        assertEquals(1_000_000, m.size());
        double perEvent = (double) m.bytesUsed() / m.size();
        assertTrue(perEvent <= 40, "bytes per event " + perEvent);
        assertEquals(999_999, m.partner(999_998));
    }
}
