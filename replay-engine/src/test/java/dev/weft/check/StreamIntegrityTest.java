package dev.weft.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.log.Event;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.log.VAddr;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --check stream}: reads must be the written bytes, in order, each once; a corrupted stream is caught. */
class StreamIntegrityTest {

    static final VAddr A = VAddr.ofNode(0, 40000), B = VAddr.ofNode(1, 80);

    /** conn 2 connects (sid 0), conn 3 adopts; conn 2 writes "hello" then " world". */
    static List<Event> prefix() {
        List<Event> e = new ArrayList<>();
        e.add(new Event.TcpConnect(2, 0, A, B, 1, new TcpConnectOutcome.Established(10)));
        e.add(new Event.TcpAdopt(3, 0));
        e.add(new Event.TcpSend(2, 0, 0, 20, "68656c6c6f", new TcpSendOutcome.Segment(30, 0)));
        e.add(new Event.TcpSend(2, 0, 5, 21, "20776f726c64", TcpSendOutcome.STALLED));
        return e;
    }

    static Event read(long offset, String hex, boolean peek) {
        return new Event.TcpRecv(3, 0, 100, peek, true, new TcpRecvOutcome.Data(offset, 30, hex));
    }

    /** The first violation message over prefix() then more, or null. */
    static String check(Event... more) {
        StreamIntegrity inv = new StreamIntegrity();
        List<Event> all = prefix();
        all.addAll(List.of(more));
        long op = 0;
        for (Event e : all) {
            String m = inv.offer(op++, 0, e);
            if (m != null) return m;
        }
        return null;
    }

    @Test
    void readsOfTheWrittenBytesInOrderPass() {
        assertNull(check(read(0, "6865", true), read(0, "6865", false), read(2, "6c6c6f20", false),
                read(6, "776f726c64", false)));
    }

    @Test
    void aCorruptedByteIsCaught() {
        assertEquals("stream sid=0 connector \u2192 acceptor: bytes 0..5 read differ from those written (first at offset 1)",
                check(read(0, "68616c6c6f", false)));
    }

    @Test
    void aSkipOrARereadIsCaught() {
        assertEquals("stream sid=0 connector \u2192 acceptor: bytes read at offset 2 but 0 were read before (skipped)",
                check(read(2, "6c6c", false)));
        assertEquals("stream sid=0 connector \u2192 acceptor: bytes read at offset 0 but 5 were read before (read twice)",
                check(read(0, "68656c6c6f", false), read(0, "68", false)));
    }

    @Test
    void bytesNeverWrittenAndGapsInWritesAreCaught() {
        assertEquals("stream sid=0 connector \u2192 acceptor: bytes 0..12 read but only 11 were written",
                check(read(0, "68656c6c6f20776f726c6421", false)));
        assertEquals("stream sid=0 connector \u2192 acceptor: segment written at offset 12 but 11 bytes were written"
                + " before it (a gap or an overlap)",
                check(new Event.TcpSend(2, 0, 12, 22, "21", new TcpSendOutcome.Segment(40, 0))));
    }

    @Test
    void theOtherDirectionIsJudgedApart() {
        assertNull(check(new Event.TcpSend(3, 0, 0, 40, "6f6b", new TcpSendOutcome.Segment(50, 0)),
                new Event.TcpRecv(2, 0, 10, false, true, new TcpRecvOutcome.Data(0, 50, "6f6b"))));
    }

    @Test
    void theCheckListKnowsStream() {
        List<String> names = new ArrayList<>();
        Invariants.appendCheckList("fifo,stream", names);
        assertEquals(List.of(PerChannelFifo.NAME, StreamIntegrity.NAME), names);
        assertEquals(StreamIntegrity.class, Invariants.instantiate(List.of("stream")).get(0).getClass());
    }
}
