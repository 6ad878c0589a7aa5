package dev.weft.broker.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.VAddr;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import org.junit.jupiter.api.Test;

/** The TCP messages of docs/tcp.md, encoded byte by byte here (little-endian) and decoded by the broker. */
class TcpWireTest {
    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static Request decode(ByteBuffer b) throws ProtocolException {
        return RequestDecoder.decode(b.array(), 0, b.position());
    }

    @Test
    void everyTcpRequestDecodesToItsFields() throws Exception {
        assertEquals(new Request.TcpBind(new VAddr(0x7F000001L, 0)),
                decode(le(7).put((byte) 16).putInt(0x7F000001).putShort((short) 0)));
        assertEquals(new Request.TcpListen(4096L), decode(le(5).put((byte) 17).putInt(4096)));
        assertEquals(new Request.TcpConnect(new VAddr(0x7F000002L, 6379), 77L, true),
                decode(le(16).put((byte) 18).putInt(0x7F000002).putShort((short) 6379).putLong(77).put((byte) 1)));
        assertEquals(new Request.TcpAccept(5L, false), decode(le(10).put((byte) 19).putLong(5).put((byte) 0)));
        assertEquals(new Request.TcpAdopt(-2L), decode(le(9).put((byte) 20).putLong(-2)));
        Request w = decode(le(1 + 4 + 3 + 8 + 1).put((byte) 21).putInt(3).put(new byte[] {'a', 'b', 'c'}).putLong(9)
                .put((byte) 1));
        Request.TcpWrite tw = (Request.TcpWrite) w;
        assertArrayEquals(new byte[] {'a', 'b', 'c'}, tw.payload());
        assertEquals(9, tw.localVt());
        assertTrue(tw.blocking());
        Request.TcpRead r = (Request.TcpRead) decode(le(18).put((byte) 22).putInt(0xFFFFFFFF).putInt(1).putLong(3)
                .put((byte) 1));
        assertEquals(0xFFFFFFFFL, r.max());
        assertTrue(r.peek());
        assertEquals(new Request.TcpShutdown(1), decode(le(5).put((byte) 23).putInt(1)));
        assertEquals(new Request.TcpAbort(), decode(le(1).put((byte) 24)));
        assertEquals(new Request.TcpWait(0x2005, 10, 0), decode(le(21).put((byte) 25).putInt(0x2005).putLong(10)
                .putLong(0)));
        assertEquals(new Request.TcpUnwait(), decode(le(1).put((byte) 26)));
        assertEquals(new Request.TcpStatus(), decode(le(1).put((byte) 27)));
        assertEquals(new Request.TcpClose(42), decode(le(9).put((byte) 29).putLong(42)));
    }

    /** protocol-v3 §2a: TcpWait's optional trailing flags byte; without it a wait means what it always did (IDLE). */
    @Test
    void aTcpWaitsTrailingFlagsByteIsOptional() throws Exception {
        Request.TcpWait old = (Request.TcpWait) decode(le(21).put((byte) 25).putInt(1).putLong(10).putLong(0));
        assertTrue(old.idle());
        assertFalse(old.forever() || old.probe());
        Request.TcpWait aside = (Request.TcpWait) decode(le(22).put((byte) 25).putInt(1).putLong(10).putLong(0)
                .put((byte) 0));
        assertFalse(aside.idle() || aside.forever() || aside.probe());
        assertTrue(((Request.TcpWait) decode(le(22).put((byte) 25).putInt(1).putLong(10).putLong(0).put((byte) 2)))
                .forever());
        assertTrue(((Request.TcpWait) decode(le(22).put((byte) 25).putInt(1).putLong(10).putLong(10).put((byte) 4)))
                .probe());
        assertEquals("TcpClose message too short for its fields", assertThrows(ProtocolException.class,
                () -> decode(le(5).put((byte) 29).putInt(1))).getMessage());
    }

    @Test
    void aWriteLengthBeyondItsFrameIsRefusedBeforeAnythingIsAllocated() {
        // claims 2^31 bytes in a 9-byte message: must be a one-line protocol error, not an OutOfMemoryError
        ProtocolException e = assertThrows(ProtocolException.class,
                () -> decode(le(9).put((byte) 21).putInt(Integer.MAX_VALUE).putInt(0)));
        assertEquals("TcpWrite payload length 2147483647 exceeds the frame", e.getMessage());
    }

    @Test
    void shortTcpMessagesAndBadValuesAreProtocolErrors() {
        assertEquals("TcpConnect message too short for its fields", assertThrows(ProtocolException.class,
                () -> decode(le(15).put((byte) 18).putInt(1).putShort((short) 1).putLong(0))).getMessage());
        assertEquals("TcpWait message too short for its fields", assertThrows(ProtocolException.class,
                () -> decode(le(13).put((byte) 25).putInt(1).putLong(0))).getMessage());
        assertEquals("TcpShutdown how 3 is not 0 (rd), 1 (wr) or 2 (rdwr)", assertThrows(ProtocolException.class,
                () -> decode(le(5).put((byte) 23).putInt(3))).getMessage());
        assertEquals("Lease message too short for its fields", assertThrows(ProtocolException.class,
                () -> decode(le(1).put((byte) 28))).getMessage());
        assertEquals("unknown message tag 7", assertThrows(ProtocolException.class,
                () -> decode(le(1).put((byte) 7))).getMessage());
    }

    @Test
    void repliesAreFramedWithTheirFieldsAndVt() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ReplyWriter w = new ReplyWriter(Channels.newChannel(out));
        VAddr a = new VAddr(0x7F000001L, 40000);
        VAddr b = new VAddr(0x7F000002L, 80);
        w.error(111, 5);
        w.connected(a, b, 6);
        w.accepted(3, b, a, 7);
        w.data("hi".getBytes(), 0, 2, 8);
        w.status(4, 0, a, b, 10, 20, 9);
        ByteBuffer r = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(13, r.getInt());
        assertEquals(Wire.ERROR, r.get());
        assertEquals(111, r.getInt());
        assertEquals(5, r.getLong());
        assertEquals(21, r.getInt());
        assertEquals(Wire.CONNECTED, r.get());
        assertEquals(0x7F000001, r.getInt());
        assertEquals(40000, Short.toUnsignedInt(r.getShort()));
        assertEquals(0x7F000002, r.getInt());
        assertEquals(80, r.getShort());
        assertEquals(6, r.getLong());
        assertEquals(29, r.getInt());
        assertEquals(Wire.ACCEPTED, r.get());
        assertEquals(3, r.getLong());
        r.position(r.position() + 12);
        assertEquals(7, r.getLong());
        assertEquals(15, r.getInt());
        assertEquals(Wire.DATA, r.get());
        assertEquals(2, r.getInt());
        assertEquals('h', r.get());
        assertEquals('i', r.get());
        assertEquals(8, r.getLong());
        assertEquals(1 + 4 + 4 + 12 + 4 + 4 + 8, r.getInt());
        assertEquals(Wire.STATUS, r.get());
        assertEquals(4, r.getInt());
        assertEquals(0, r.getInt());
        r.position(r.position() + 12);
        assertEquals(10, r.getInt());
        assertEquals(20, r.getInt());
        assertEquals(9, r.getLong());
        assertEquals(0, r.remaining());
    }
}
