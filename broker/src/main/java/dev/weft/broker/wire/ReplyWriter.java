package dev.weft.broker.wire;

import dev.weft.log.VAddr;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.WritableByteChannel;

/** Encodes broker → node replies (wire-and-abi.md §2) into one reused buffer and writes each as one frame. */
public final class ReplyWriter {
    private static final int HEADER = 4 + 1 + 6 + 6 + 4; // len, tag, src, dst, payload length

    private final WritableByteChannel out;
    private ByteBuffer buf = ByteBuffer.allocateDirect(4096).order(ByteOrder.LITTLE_ENDIAN);

    public ReplyWriter(WritableByteChannel out) {
        this.out = out;
    }

    public void ack(long vt) throws IOException {
        simple(Wire.ACK, vt);
    }

    public void empty(long vt) throws IOException {
        simple(Wire.EMPTY, vt);
    }

    public void deliver(VAddr src, VAddr dst, byte[] payload, long vt) throws IOException {
        int need = HEADER + payload.length + 8;
        if (buf.capacity() < need) {
            buf = ByteBuffer.allocateDirect(need).order(ByteOrder.LITTLE_ENDIAN);
        }
        buf.clear();
        buf.putInt(need - 4).put((byte) Wire.DELIVER);
        addr(src);
        addr(dst);
        buf.putInt(payload.length).put(payload).putLong(vt);
        flush();
    }

    private void simple(int tag, long vt) throws IOException {
        buf.clear();
        buf.putInt(9).put((byte) tag).putLong(vt);
        flush();
    }

    private void addr(VAddr a) {
        buf.putInt((int) a.ip()).putShort((short) a.port());
    }

    private void flush() throws IOException {
        buf.flip();
        while (buf.hasRemaining()) {
            out.write(buf);
        }
    }
}
