package dev.weft.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The comparison on small hand-made logs whose answers are known: two nodes start in the other order (every op
 * differs) yet see the same first deliveries; node 1's second delivery is the first thing a node sees differently.
 */
class RecordingDiffTest {

    @TempDir
    Path dir;

    private static final VAddr N0 = VAddr.ofNode(0, 9000);
    private static final VAddr N1 = VAddr.ofNode(1, 9000);

    private static Event deliver(long conn, VAddr src, VAddr dst, String payload) {
        return new Event.Recv(conn, true, new RecvOutcome.Delivered(src, dst, 5, 0, payload));
    }

    /** Writes records given as vt, event pairs. */
    private Path log(String name, Object... vtAndEvents) throws Exception {
        Path p = dir.resolve(name);
        try (LogWriter w = LogWriter.create(p, 7, "latency=fixed:5", 0, LogMeta.EMPTY)) {
            for (int i = 0; i < vtAndEvents.length; i += 2) {
                w.append((Long) vtAndEvents[i], (Event) vtAndEvents[i + 1]);
            }
        }
        return p;
    }

    private Path a(boolean withLast) throws Exception {
        Object[] records = {
                0L, new Event.Connect(0), 0L, new Event.Hello(0, 0), 0L, new Event.Connect(1), 0L, new Event.Hello(1, 1),
                0L, deliver(1, N0, N1, "aa"), 0L, deliver(0, N1, N0, "bb"), 10L, deliver(1, N0, N1, "cc")};
        return withLast ? log("a.weftlog", records) : log("a-short.weftlog", java.util.Arrays.copyOf(records, 12));
    }

    private Path b() throws Exception {
        return log("b.weftlog",
                0L, new Event.Connect(1), 0L, new Event.Hello(1, 1), 0L, new Event.Connect(0), 0L, new Event.Hello(0, 0),
                0L, deliver(0, N1, N0, "BB"), 0L, deliver(1, N0, N1, "aa"), 10L, deliver(1, N0, N1, "dd"),
                10L, new Event.Send(0, N0, N1, 3, 10, "ee", SendOutcome.DROPPED));
    }

    @Test
    void byOpTheFirstRecordDiffersButNodesPartWaysOnlyAtNodeOnesSecondDelivery() throws Exception {
        DiffResult r = RecordingDiff.compare(a(true), b(), Alignment.OP);
        assertEquals(0, r.firstRecord().opA());
        assertEquals("{\"op\":0,\"vt\":0,\"e\":{\"k\":\"connect\",\"conn\":0}}", r.firstRecord().a());
        assertEquals("{\"op\":0,\"vt\":0,\"e\":{\"k\":\"connect\",\"conn\":1}}", r.firstRecord().b());
        // Node 0's "bb" is the same bytes as "BB" (hex case is not visible to the node); node 1's first is "aa" on both.
        EffectDivergence e = r.firstEffect();
        assertEquals(1, e.node());
        assertEquals(1, e.index());
        assertEquals(6, e.a().op());
        assertTrue(e.a().text().endsWith("payload cc"), e.a().text());
        assertTrue(e.b().text().endsWith("payload dd"), e.b().text());
        // (deliveries without their sends: the invariants' verdicts on these hand-made logs are not asserted here)
        assertEquals(java.util.List.of(7L, 3L, 0L), java.util.List.of(r.a().ops(), r.a().deliveries(), r.a().drops()));
        assertEquals(java.util.List.of(8L, 3L, 1L), java.util.List.of(r.b().ops(), r.b().deliveries(), r.b().drops()));
        String text = DiffText.report("A", "B", r);
        assertTrue(text.contains("first node-visible difference: node 1, delivery #2\n"), text);
        assertTrue(text.contains("  A: op 6 vt 10 ns: received from 127.0.0.1:9000: 1 byte cc\n"), text);
        // The start order differs from op 0, but no node saw that: it is listed as the schedule's.
        assertTrue(ScheduleDifference.scheduleOnly(r));
        assertTrue(text.contains("  schedule only: node start order (connect, hello and bind in another order);"
                + " no node saw a difference before A op 6 / B op 6\n"), text);
        assertTrue(text.indexOf("first node-visible difference") < text.indexOf("first divergence at op 0"), "the answer first");
    }

    @Test
    void whatANodeSendsCountsAsWhatItDid() throws Exception {
        Path x = log("x.weftlog", 0L, new Event.Connect(0), 0L, new Event.Hello(0, 0),
                1L, new Event.Send(0, N0, N1, 0, 1, "68656c6c6f", SendOutcome.DROPPED));
        Path y = log("y.weftlog", 0L, new Event.Connect(0), 0L, new Event.Hello(0, 0),
                1L, new Event.Send(0, N0, N1, 0, 1, "776f726c64", SendOutcome.DROPPED));
        DiffResult r = RecordingDiff.compare(x, y, Alignment.OP);
        assertEquals(0, r.firstEffect().node());
        assertEquals(NodeDelivery.Kind.SEND, r.firstEffect().a().kind());
        String text = DiffText.report("X", "Y", r);
        assertTrue(text.contains("first node-visible difference: node 0, send #1\n"), text);
        assertTrue(text.contains("  A: op 2 vt 1 ns: sent to 127.0.0.2:9000: \"hello\"\n"), text);
        assertTrue(text.contains("  B: op 2 vt 1 ns: sent to 127.0.0.2:9000: \"world\"\n"), text);
        assertTrue(!ScheduleDifference.scheduleOnly(r), "the records part where the node's send does");
    }

    @Test
    void byVtTheSameEventsInAnotherOrderAtOneVtAreTheSame() throws Exception {
        DiffResult r = RecordingDiff.compare(a(true), b(), Alignment.VT);
        // vt 0 holds the same events on both sides except node 0's payload case: "bb" and "BB" are different text.
        assertEquals(0, r.firstRecord().vt());
        Path bSameCase = log("b2.weftlog",
                0L, new Event.Connect(1), 0L, new Event.Hello(1, 1), 0L, new Event.Connect(0), 0L, new Event.Hello(0, 0),
                0L, deliver(0, N1, N0, "bb"), 0L, deliver(1, N0, N1, "aa"), 10L, deliver(1, N0, N1, "dd"));
        DiffResult same = RecordingDiff.compare(a(true), bSameCase, Alignment.VT);
        assertEquals(10, same.firstRecord().vt());
        assertEquals(6, same.firstRecord().opA());
        assertEquals(6, same.firstRecord().opB());
    }

    /**
     * A datagram to node 1 is dropped on B (a what-if): node 1 sees that first, at vt 10, but its B side has nothing
     * to pair with until vt 50, while node 2, which hears from node 1 only later, already differs at vt 30. The
     * answer is the earliest difference in virtual time (node 1), not the first pair the stream happens to complete.
     */
    @Test
    void theEarliestDifferenceInVirtualTimeIsTheAnswerNotTheFirstPairCompleted() throws Exception {
        VAddr n2 = VAddr.ofNode(2, 9000);
        Object[] start = {0L, new Event.Connect(0), 0L, new Event.Hello(0, 0), 0L, new Event.Connect(1),
                0L, new Event.Hello(1, 1), 0L, new Event.Connect(2), 0L, new Event.Hello(2, 2)};
        Path a = log("drop-a.weftlog", concat(start, 10L, deliver(1, N0, N1, "01"), 30L, deliver(2, N1, n2, "a1"),
                50L, deliver(1, N0, N1, "02")));
        Path b = log("drop-b.weftlog", concat(start, 30L, deliver(2, N0, n2, "b0"), 50L, deliver(1, N0, N1, "02")));
        for (Alignment how : Alignment.values()) {
            EffectDivergence e = RecordingDiff.compare(a, b, how).firstEffect();
            assertEquals(1, e.node(), how + ": the dropped datagram's receiver");
            assertEquals(0, e.index());
            assertEquals(6, e.a().op());
            assertEquals(10, e.a().vt());
            assertTrue(e.b().text().endsWith("payload 02"), e.b().text());
        }
        // the same two runs named the other way round give the same node
        assertEquals(1, RecordingDiff.compare(b, a, Alignment.OP).firstEffect().node());
    }

    private static Object[] concat(Object[] head, Object... tail) {
        Object[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    @Test
    void aDeliveryOnlyOneSideHasIsTheDifferenceWhenAllPairedOnesMatch() throws Exception {
        DiffResult r = RecordingDiff.compare(a(true), a(false), Alignment.OP);
        assertEquals(6, r.firstRecord().opA());
        assertNull(r.firstRecord().b(), "B ended");
        assertEquals(1, r.firstEffect().node());
        assertEquals(6, r.firstEffect().a().op());
        assertNull(r.firstEffect().b());
        DiffResult itself = RecordingDiff.compare(a(true), a(true), Alignment.OP);
        assertTrue(itself.identical());
    }
}
