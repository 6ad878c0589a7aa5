package dev.weft.broker.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A frame's length prefix is a peer's claim: nothing is allocated for bytes that have not arrived (issue 28 item 2). */
class FrameReaderTest {

    /** A channel serving {@code bytes} at most {@code chunk} bytes per read, then end of stream. */
    private static ReadableByteChannel trickle(byte[] bytes, int chunk) {
        return new ReadableByteChannel() {
            private int at;

            @Override
            public int read(ByteBuffer dst) {
                if (at == bytes.length) {
                    return -1;
                }
                int n = Math.min(Math.min(chunk, dst.remaining()), bytes.length - at);
                dst.put(bytes, at, n);
                at += n;
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {
            }
        };
    }

    private static byte[] frame(int claimed, byte[] body) {
        ByteBuffer b = ByteBuffer.allocate(4 + body.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(claimed).put(body);
        return b.array();
    }

    private static long allocatedByThisThread() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void aSixteenMebibyteClaimWithoutTheBytesAllocatesAlmostNothing() throws Exception {
        FrameReader r = new FrameReader(trickle(frame(Wire.MAX_FRAME, new byte[100]), 1 << 16));
        long before = allocatedByThisThread();
        ProtocolException e = assertThrows(ProtocolException.class, r::next);
        long spent = allocatedByThisThread() - before;
        assertEquals("connection closed in the middle of a frame", e.getMessage());
        assertTrue(spent < 1 << 20, "allocated " + spent + " bytes for a frame whose bytes never came");
    }

    @Test
    void aLargeFrameArrivingInPiecesIsReadWhole() throws Exception {
        byte[] body = new byte[3 << 20];
        new SplittableRandom(28).nextBytes(body);
        byte[] two = new byte[2 * (body.length + 4)];
        byte[] f = frame(body.length, body);
        System.arraycopy(f, 0, two, 0, f.length);
        System.arraycopy(f, 0, two, f.length, f.length);
        FrameReader r = new FrameReader(trickle(two, 7919));
        for (int i = 0; i < 2; i++) {
            assertTrue(r.next());
            assertEquals(body.length, r.messageLength());
            assertArrayEquals(body, Arrays.copyOfRange(r.message(), r.messageOffset(), r.messageOffset() + r.messageLength()));
        }
        assertEquals(false, r.next());
    }
}
