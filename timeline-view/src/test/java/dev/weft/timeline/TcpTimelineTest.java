package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.log.VAddr;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A TCP run on the timeline: every tcp_* record has its own mark on the lane of the node that made it, a write is
 * linked to the read that took its first byte, and the ext record (which names no connection) gets no lane of its own.
 */
class TcpTimelineTest {

    private final List<LogRecord> recs = new ArrayList<>();

    private int add(long vt, Event e) {
        recs.add(new LogRecord(recs.size(), vt, e, 0, 0));
        return recs.size() - 1;
    }

    @Test
    void tcpRecordsHaveTheirOwnMarksOnTheirNodesLanesAndWritesLinkToReads() {
        VAddr client = VAddr.ofNode(0, 40000), server = VAddr.ofNode(1, 6379);
        for (long conn = 1; conn <= 3; conn++) {
            add(0, new Event.Connect(conn));
            add(0, new Event.Hello(conn, conn == 2 ? 0 : 1));
        }
        int ext = add(0, new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION));
        int bind = add(0, new Event.TcpBind(1, server));
        add(0, new Event.TcpListen(1, 16));
        int connect = add(0, new Event.TcpConnect(2, 0, client, server, 0, new TcpConnectOutcome.Established(1000)));
        add(1000, new Event.TcpAccept(1, true, new TcpAcceptOutcome.Accepted(0, client, server, 500)));
        add(1000, new Event.TcpAdopt(3, 0));
        // The client writes 4 + 3 bytes; the server reads 2, then 5 (the rest of the first write and the second).
        int w1 = add(2000, new Event.TcpSend(2, 0, 0, 2000, "50494e47", new TcpSendOutcome.Segment(3000, 0)));
        int w2 = add(2000, new Event.TcpSend(2, 0, 4, 2000, "0d0a21", new TcpSendOutcome.Segment(3000, 0)));
        int r1 = add(3000, new Event.TcpRecv(3, 0, 2, false, true, new TcpRecvOutcome.Data(0, 3000, "5049")));
        int r2 = add(3000, new Event.TcpRecv(3, 0, 99, false, true, new TcpRecvOutcome.Data(2, 3000, "4e470d0a21")));
        // The server answers; the client reads it.
        int w3 = add(4000, new Event.TcpSend(3, 0, 0, 4000, "2b4f4b", new TcpSendOutcome.Segment(5000, 0)));
        int r3 = add(5000, new Event.TcpRecv(2, 0, 99, false, true, new TcpRecvOutcome.Data(0, 5000, "2b4f4b")));
        int close = add(6000, new Event.TcpClose(2, 0, false));
        int reset = add(6000, new Event.TcpReset(0, "test", 6000));
        int end = add(6000, new Event.End(20, 0, 0));

        TimelineModel m = TimelineModel.of(recs);
        List<String> labels = m.lanes().stream().map(Lane::label).toList();
        assertEquals(List.of("node 0", "node 1", "run"), labels, "no lane for conn 18446744073709551615");
        int node0 = 0, node1 = 1, run = 2;
        assertEquals(run, m.lane(ext));
        assertEquals(run, m.lane(end));
        assertEquals(node1, m.lane(bind));
        assertEquals(node0, m.lane(connect));
        assertEquals(node0, m.lane(w1));
        assertEquals(node1, m.lane(r1));
        assertEquals(node1, m.lane(w3));
        assertEquals(node0, m.lane(reset), "a reset sits on its stream's connector");

        assertEquals(MarkKind.TCP_OPEN, m.kind(bind));
        assertEquals(MarkKind.TCP_OPEN, m.kind(connect));
        assertEquals(MarkKind.TCP_SEND, m.kind(w1));
        assertEquals(MarkKind.TCP_RECV, m.kind(r2));
        assertEquals(MarkKind.TCP_CLOSE, m.kind(close));
        assertEquals(MarkKind.TCP_RESET, m.kind(reset));
        assertEquals(MarkKind.END, m.kind(end));
        for (LogRecord r : recs) {
            if (r.event().isTcp()) assertTrue(m.kind((int) r.op()) != MarkKind.END, "op " + r.op() + " drawn as end");
        }

        // Flows: each read links to the write holding its first byte; each write to the first read of it.
        assertEquals(w1, m.partner(r1));
        assertEquals(r1, m.partner(w1));
        assertEquals(w1, m.partner(r2), "r2 starts at byte 2, inside the first write");
        assertEquals(TimelineModel.NO_PARTNER, m.partner(w2), "no read starts inside the second write");
        assertEquals(w3, m.partner(r3), "the other direction of the same stream");
        assertEquals(r3, m.partner(w3));
    }

    @Test
    void laneCountsInARangeAreTheOpsOfThatLane() {
        TimelineModel m = TimelineModel.of(dev.weft.testsupport.SyntheticRun.generate(4, 3, 5000));
        int[] counts = new int[m.laneCount()];
        for (int[] r : new int[][] {{0, 5000}, {17, 18}, {100, 1234}, {4999, 5000}, {300, 300}}) {
            m.countsInRange(r[0], r[1], counts);
            for (int lane = 0; lane < m.laneCount(); lane++) {
                int expected = 0;
                for (int op = r[0]; op < r[1]; op++) if (m.lane(op) == lane) expected++;
                assertEquals(expected, counts[lane], "lane " + lane + " in " + r[0] + ".." + r[1]);
            }
        }
    }
}
