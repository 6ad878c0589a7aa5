package dev.weft.broker.wire;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Reads length-prefixed frames from a blocking channel. Reads as much as the channel has into one reused
 * buffer so a burst of small frames costs one system call; a frame larger than that buffer gets an array that
 * grows with the bytes received (never more than twice what arrived), and only after its length prefix passed the
 * {@link Wire#MAX_FRAME} check: a length read from a peer is never allocated before the bytes are there.
 */
public final class FrameReader {
    private static final int BUFFER = 64 * 1024;

    private final ReadableByteChannel in;
    private final ByteBuffer buf = ByteBuffer.allocate(BUFFER).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    /** The message of the last frame returned: array, offset and length. */
    private byte[] msg;
    private int msgOffset;
    private int msgLength;

    public FrameReader(ReadableByteChannel in) {
        this.in = in;
        buf.flip(); // empty, in read mode
    }

    /**
     * Reads the next frame; false at a clean end of stream (between frames). A length prefix over the limit,
     * or an end of stream inside a frame, is a {@link ProtocolException}.
     */
    public boolean next() throws IOException, ProtocolException {
        if (!fill(4, true)) {
            return false;
        }
        long len = Integer.toUnsignedLong(buf.getInt(buf.position()));
        if (len > Wire.MAX_FRAME) {
            throw new ProtocolException("frame length " + len + " exceeds the 16 MiB limit");
        }
        buf.position(buf.position() + 4);
        int n = (int) len;
        if (n <= BUFFER) {
            fill(n, false);
            msg = buf.array();
            msgOffset = buf.position();
            msgLength = n;
            buf.position(buf.position() + n);
            return true;
        }
        // A length prefix is only a claim: the array grows with the bytes that actually arrive (doubling, from
        // what is buffered), so a peer that announces 16 MiB and sends nothing costs this reader nothing extra.
        byte[] big = new byte[Math.min(n, Math.max(2 * BUFFER, buf.remaining()))];
        int have = buf.remaining();
        buf.get(big, 0, have);
        while (have < n) {
            if (have == big.length) {
                big = java.util.Arrays.copyOf(big, (int) Math.min(n, 2L * big.length));
            }
            ByteBuffer rest = ByteBuffer.wrap(big, have, big.length - have);
            int r = in.read(rest);
            if (r < 0) {
                throw new ProtocolException("connection closed in the middle of a frame");
            }
            have += r;
        }
        msg = big;
        msgOffset = 0;
        msgLength = n;
        return true;
    }

    /** Ensures n bytes are buffered; false only when atStart and the stream ended before any of them. */
    private boolean fill(int n, boolean atStart) throws IOException, ProtocolException {
        if (buf.remaining() >= n) {
            return true;
        }
        buf.compact();
        try {
            while (buf.position() < n) {
                if (in.read(buf) < 0) {
                    if (atStart && buf.position() == 0) {
                        return false;
                    }
                    throw new ProtocolException("connection closed in the middle of a frame");
                }
            }
        } finally {
            buf.flip();
        }
        return true;
    }

    public byte[] message() {
        return msg;
    }

    public int messageOffset() {
        return msgOffset;
    }

    public int messageLength() {
        return msgLength;
    }
}
