package dev.weft.broker.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.log.VAddr;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import org.junit.jupiter.api.Test;

/** The receive lease of docs/design/protocol-v3.md §2 (tag 28 Lease, reply 14 Leased), byte by byte. */
class LeaseWireTest {
    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static Request decode(ByteBuffer b) throws ProtocolException {
        return RequestDecoder.decode(b.array(), 0, b.position());
    }

    private static ByteBuffer lease(int mode, long vt) {
        return le(16).put((byte) Wire.LEASE).putInt(0x7F000002).putShort((short) 9000).put((byte) mode).putLong(vt);
    }

    @Test
    void aLeaseDecodesToItsAddressModeAndVt() throws Exception {
        VAddr a = new VAddr(0x7F000002L, 9000);
        assertEquals(new Request.Lease(a, Wire.LEASE_NONBLOCKING, 1_000_000L), decode(lease(0, 1_000_000L)));
        assertEquals(new Request.Lease(a, Wire.LEASE_TIMED, 5L), decode(lease(1, 5L)));
        assertEquals(new Request.Lease(a, Wire.LEASE_BLOCKING, -1L), decode(lease(2, -1L)));
    }

    @Test
    void anUnknownModeOrAShortLeaseIsAProtocolError() {
        assertEquals("Lease mode 3 is not 0 (non-blocking), 1 (timed) or 2 (blocking)",
                assertThrows(ProtocolException.class, () -> decode(lease(3, 0))).getMessage());
        assertEquals("Lease message too short for its fields", assertThrows(ProtocolException.class,
                () -> decode(le(8).put((byte) Wire.LEASE).putInt(1).putShort((short) 1).put((byte) 0))).getMessage());
    }

    @Test
    void leasedCarriesTheLeaseThenTheVt() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ReplyWriter(Channels.newChannel(out)).leased(61_000L, 7L);
        ByteBuffer r = ByteBuffer.wrap(out.toByteArray()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(17, r.getInt());
        assertEquals(Wire.LEASED, r.get());
        assertEquals(61_000L, r.getLong());
        assertEquals(7L, r.getLong());
        assertFalse(r.hasRemaining());
    }
}
