package dev.weft.launcher.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;

/**
 * The broker wire's framing (a u32 little-endian length, then the message), shared by the test brokers
 * {@link WireBroker} and {@link TcpWireBroker} so that each of them holds only its own protocol.
 */
final class WireFrames {
    /** Longer messages than this end the connection: no request of the protocol comes near it. */
    private static final int MAX_MESSAGE = 16 * 1024 * 1024;

    private WireFrames() {
    }

    /**
     * Reads the next message, ready to read from its tag on; null when its length is out of range (the connection
     * should end). Throws at the end of the stream.
     */
    static ByteBuffer read(SocketChannel ch) throws IOException {
        ByteBuffer len = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
        readFully(ch, len);
        int n = len.getInt(0);
        if (n <= 0 || n > MAX_MESSAGE) {
            return null;
        }
        ByteBuffer m = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        readFully(ch, m);
        return m.flip();
    }

    /** Writes body (filled from position 0 up to its position) as one framed message. */
    static void write(SocketChannel ch, ByteBuffer body) throws IOException {
        body.flip();
        ByteBuffer frame = ByteBuffer.allocate(4 + body.remaining()).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(body.remaining()).put(body).flip();
        while (frame.hasRemaining()) {
            ch.write(frame);
        }
    }

    private static void readFully(SocketChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new IOException("end of stream");
            }
        }
    }
}
