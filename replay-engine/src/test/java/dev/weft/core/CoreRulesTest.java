package dev.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each rule of core-and-replay.md §1.2, one test per rule. */
class CoreRulesTest {

    private static final VAddr A = VAddr.ofNode(0, 100);
    private static final VAddr B = VAddr.ofNode(1, 100);
    private static final VAddr C = VAddr.ofNode(2, 100);
    private static final byte[] P = {1, 2, 3};

    private static Core core(String net) throws Exception {
        return new Core(FaultModel.of(0, net));
    }

    /** A core on {@code net} where {@code conn} is connected and owns {@code addr}. */
    private static Core owning(String net, long conn, VAddr addr) throws Exception {
        Core core = core(net);
        core.connect(conn);
        core.bind(conn, addr);
        return core;
    }

    private static SendOutcome.Enqueued enqueued(Core.SendResult r) {
        return (SendOutcome.Enqueued) r.outcome();
    }

    @Test
    void everySendTakesTheNextChannelSequenceWhateverItsOutcome() throws Exception {
        Core core = core("loss=1.0");
        assertEquals(new Core.SendResult(0, SendOutcome.DROPPED), core.send(A, B, P, 0));
        assertEquals(new Core.SendResult(1, SendOutcome.DROPPED), core.send(A, B, P, 0));
        Core reliable = core("");
        assertEquals(new Core.SendResult(0, SendOutcome.NO_RECEIVER), reliable.send(A, B, P, 0));
        reliable.connect(7);
        reliable.bind(7, B);
        assertEquals(1, reliable.send(A, B, P, 0).chanSeq());
        // Other channels count separately; the port is part of the channel.
        assertEquals(0, reliable.send(B, A, P, 0).chanSeq());
        assertEquals(0, reliable.send(A, new VAddr(B.ip(), 101), P, 0).chanSeq());
        assertEquals(0, reliable.send(new VAddr(A.ip(), 101), B, P, 0).chanSeq());
        assertEquals(2, reliable.send(A, B, P, 0).chanSeq());
    }

    @Test
    void theFaultCheckPrecedesTheReceiverLookup() throws Exception {
        Core core = core("loss=1.0");
        assertEquals(SendOutcome.DROPPED, core.send(A, C, P, 0).outcome()); // C is bound by nobody
        assertEquals(1, core.sent());
        assertEquals(1, core.dropped());
        Core partitioned = core("partition=0|1+2");
        assertEquals(SendOutcome.DROPPED, partitioned.send(A, B, P, 0).outcome()); // unbound B, cut off
        assertEquals(SendOutcome.NO_RECEIVER, partitioned.send(B, C, P, 0).outcome()); // same group
    }

    @Test
    void noReceiverConsumesNoTieAndLeavesVtAlone() throws Exception {
        Core core = owning("latency=fixed:50", 0, A);
        assertEquals(0, enqueued(core.send(B, A, P, 0)).tie());
        assertEquals(50, core.vt());
        assertEquals(SendOutcome.NO_RECEIVER, core.send(A, C, P, 1000).outcome());
        assertEquals(1, core.tie());
        assertEquals(50, core.vt());
        assertEquals(0, core.dropped());
        assertEquals(1, enqueued(core.send(B, A, P, 0)).tie());
    }

    @Test
    void delivIsSendVtPlusDelaySaturating() throws Exception {
        Core core = owning("latency=fixed:1000", 0, A);
        assertEquals(1500, enqueued(core.send(B, A, P, 500)).delivNs());
        assertEquals(-1L, enqueued(core.send(B, A, P, -10L)).delivNs()); // 2^64-10 + 1000 saturates
        assertEquals(-1L, core.vt());
        assertEquals(-1L, enqueued(core.send(B, A, P, -1001L)).delivNs()); // 2^64-1001 + 1000 = 2^64-1 exactly
        assertEquals(-1001L, enqueued(core.send(B, A, P, -2001L)).delivNs()); // no saturation below the top
    }

    @Test
    void vtIsTheUnsignedHighWaterMark() throws Exception {
        Core core = owning("", 0, A);
        core.send(B, A, P, 0x8000_0000_0000_0000L); // 2^63, negative as a signed long
        core.send(B, A, P, 5);
        assertEquals(0x8000_0000_0000_0000L, core.vt());
    }

    @Test
    void anOwnerWithoutQueueStillConsumesTieAndRaisesVt() throws Exception {
        Core core = core("latency=fixed:10");
        core.bind(4, A); // bound, never connected
        assertEquals(new SendOutcome.Enqueued(4, 110, 0), core.send(B, A, P, 100).outcome());
        assertEquals(1, core.tie());
        assertEquals(110, core.vt());
        assertEquals(RecvOutcome.EMPTY, core.recv(4));
        assertFalse(core.hasQueue(4));
        // Bound again after its own disconnect: same silent discard.
        core.connect(5);
        core.disconnect(5);
        core.bind(5, C);
        assertEquals(new SendOutcome.Enqueued(5, 210, 1), core.send(B, C, P, 200).outcome());
        assertEquals(RecvOutcome.EMPTY, core.recv(5));
        assertTrue(core.snapshot().queues().isEmpty());
    }

    @Test
    void queuesPopInUnsignedDelivThenTieOrder() throws Exception {
        Core core = owning("", 0, A);
        core.send(B, A, new byte[]{1}, 0x8000_0000_0000_0000L); // tie 0, huge deliv
        core.send(B, A, new byte[]{2}, 7);                      // tie 1
        core.send(C, A, new byte[]{3}, 7);                      // tie 2, same deliv
        core.send(B, A, new byte[]{4}, 3);                      // tie 3
        core.send(B, A, new byte[]{5}, -1L);                    // tie 4, max deliv
        assertEquals(new RecvOutcome.Delivered(B, A, 3, 3, "04"), core.recv(0));
        assertEquals(new RecvOutcome.Delivered(B, A, 7, 1, "02"), core.recv(0));
        assertEquals(new RecvOutcome.Delivered(C, A, 7, 2, "03"), core.recv(0));
        assertEquals(new RecvOutcome.Delivered(B, A, 0x8000_0000_0000_0000L, 0, "01"), core.recv(0));
        assertEquals(new RecvOutcome.Delivered(B, A, -1L, 4, "05"), core.recv(0));
        assertEquals(RecvOutcome.EMPTY, core.recv(0));
    }

    @Test
    void deliveredPayloadsAreLowercaseHex() throws Exception {
        Core core = owning("", 0, A);
        core.send(B, A, new byte[]{(byte) 0xAB, 0x0F, (byte) 0xFF, 0}, 0);
        core.send(B, A, new byte[0], 0);
        assertEquals("ab0fff00", ((RecvOutcome.Delivered) core.recv(0)).payload());
        assertEquals("", ((RecvOutcome.Delivered) core.recv(0)).payload());
    }

    @Test
    void recvOnUnknownOrDisconnectedConnIsEmptyAndNeverChangesVt() throws Exception {
        Core core = core("latency=fixed:9");
        assertEquals(RecvOutcome.EMPTY, core.recv(123));
        assertEquals(RecvOutcome.EMPTY, core.recv(-1L));
        core.connect(1);
        core.bind(1, A);
        core.send(B, A, P, 0);
        core.disconnect(1);
        assertEquals(RecvOutcome.EMPTY, core.recv(1));
        assertEquals(9, core.vt());
    }

    @Test
    void disconnectRemovesQueueAndOwnBindingsOnly() throws Exception {
        Core core = owning("", 1, A);
        core.bind(1, C);
        core.connect(2);
        core.bind(2, B);
        core.send(B, A, P, 0);
        core.send(A, B, P, 0);
        core.disconnect(1);
        assertFalse(core.hasQueue(1));
        assertEquals(SendOutcome.NO_RECEIVER, core.send(B, A, P, 0).outcome());
        assertEquals(SendOutcome.NO_RECEIVER, core.send(B, C, P, 0).outcome());
        assertEquals(2, enqueued(core.send(A, B, P, 0)).toConn());
        // seq, tie, counters survive the disconnect
        assertEquals(2, core.send(B, A, P, 0).chanSeq());
        assertEquals(3, core.tie());
        assertEquals(6, core.sent());
        assertEquals(List.of(B), List.copyOf(core.snapshot().bindings().keySet()));
        // Reconnecting gives a fresh, empty queue.
        core.connect(1);
        assertEquals(RecvOutcome.EMPTY, core.recv(1));
        core.disconnect(99); // unknown conn: harmless
        assertEquals(2, core.queueLength(2));
    }

    @Test
    void rebindingReplacesTheOwner() throws Exception {
        Core core = core("");
        core.connect(1);
        core.connect(2);
        core.bind(1, A);
        core.bind(2, A);
        assertEquals(2, enqueued(core.send(B, A, P, 0)).toConn());
        core.disconnect(1); // no longer owns A: binding survives
        assertEquals(2, enqueued(core.send(B, A, P, 0)).toConn());
        assertEquals(2, core.queueLength(2));
    }

    @Test
    void connectKeepsAnExistingQueue() throws Exception {
        Core core = owning("", 1, A);
        core.send(B, A, P, 0);
        core.connect(1);
        assertEquals(1, core.queueLength(1));
    }

    @Test
    void recvBeforePopsOnlyBelowTheHorizon() throws Exception {
        Core core = owning("latency=fixed:100", 0, A);
        core.send(B, A, P, 0);
        assertEquals(RecvOutcome.EMPTY, core.recvBefore(0, 100));
        assertEquals(1, core.queueLength(0));
        assertEquals(100, ((RecvOutcome.Delivered) core.recvBefore(0, 101)).delivNs());
        core.send(B, A, P, 0x8000_0000_0000_0000L);
        assertEquals(RecvOutcome.EMPTY, core.recvBefore(0, 1000)); // unsigned comparison
        assertEquals(RecvOutcome.EMPTY, core.recvBefore(7, -1L));
        assertTrue(core.recvBefore(0, -1L) instanceof RecvOutcome.Delivered);
    }

    @Test
    void peekShowsTheNextDeliveryWithoutPopping() throws Exception {
        Core core = core("latency=fixed:5");
        assertNull(core.peek(0));
        core.connect(0);
        assertNull(core.peek(0));
        core.bind(0, A);
        core.send(B, A, new byte[]{9}, 10);
        core.send(C, A, new byte[]{8}, 1);
        PendingDatagram p = core.peek(0);
        assertEquals(new PendingDatagram(6, 1, C, A, new byte[]{8}), p);
        assertEquals("08", p.payloadHex());
        assertEquals(2, core.queueLength(0));
    }

    @Test
    void payloadsAreCopiedOnTheWayIn() throws Exception {
        Core core = owning("", 0, A);
        byte[] payload = {1};
        core.send(B, A, payload, 0);
        payload[0] = 2;
        assertEquals("01", ((RecvOutcome.Delivered) core.recv(0)).payload());
    }

    @Test
    void copyIsDeepAndIndependent() throws Exception {
        Core core = owning("latency=uniform:0-1000,loss=0.3", 0, A);
        for (int i = 0; i < 20; i++) core.send(B, A, new byte[]{(byte) i}, i);
        Core copy = core.copy();
        CoreState before = core.snapshot();
        assertEquals(before, copy.snapshot());
        copy.recv(0);
        copy.send(B, A, P, 0);
        copy.disconnect(0);
        copy.bind(3, C);
        assertEquals(before, core.snapshot());
        // And the other way round.
        Core second = core.copy();
        core.recv(0);
        core.connect(9);
        assertEquals(before, second.snapshot());
        // Both continue identically from equal states.
        Core a = second.copy();
        for (int i = 0; i < 10; i++) {
            assertEquals(a.send(B, A, P, i), second.send(B, A, P, i));
            assertEquals(a.recv(0), second.recv(0));
        }
        assertEquals(a.snapshot(), second.snapshot());
    }

    @Test
    void snapshotIsSortedImmutableAndPrintsUnsigned() throws Exception {
        Core core = core("latency=fixed:3");
        core.connect(-1L);
        core.connect(5);
        core.bind(-1L, B);
        core.bind(5, A);
        core.send(A, B, new byte[]{1}, 10);
        core.send(C, B, new byte[]{2}, 1);
        CoreState s = core.snapshot();
        assertEquals(List.of(5L, -1L), List.copyOf(s.queues().keySet()));
        assertEquals(List.of(4L, 13L), s.queues().get(-1L).stream().map(PendingDatagram::delivNs).toList());
        assertEquals(List.of(A, B), List.copyOf(s.bindings().keySet()));
        assertEquals(List.of(new Channel(A, B), new Channel(C, B)), List.copyOf(s.nextChanSeq().keySet()));
        assertThrows(UnsupportedOperationException.class, () -> s.queues().clear());
        assertThrows(UnsupportedOperationException.class, () -> s.queues().get(5L).add(null));
        assertThrows(UnsupportedOperationException.class, () -> s.bindings().clear());
        assertTrue(s.toString().contains("18446744073709551615=[PendingDatagram[delivNs=4"), s.toString());
        assertEquals(s.toString(), core.copy().snapshot().toString());
        core.recv(-1L);
        assertNotEquals(s, core.snapshot());
        assertEquals(2, s.pendingCount());
    }
}
