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

    /** A leased receive's final empty at vt; no datagram reaches the socket before {@code until}. */
    public void leased(long until, long vt) throws IOException {
        start(Wire.LEASED, 8).putLong(until);
        end(vt);
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

    /** A failed TCP request: a Linux errno. */
    public void error(int errno, long vt) throws IOException {
        start(Wire.ERROR, 4).putInt(errno);
        end(vt);
    }

    public void bound(VAddr local, long vt) throws IOException {
        start(Wire.BOUND, 6);
        addr(local);
        end(vt);
    }

    public void connected(VAddr src, VAddr dst, long vt) throws IOException {
        start(Wire.CONNECTED, 12);
        addr(src);
        addr(dst);
        end(vt);
    }

    public void accepted(long sid, VAddr peer, VAddr local, long vt) throws IOException {
        start(Wire.ACCEPTED, 8 + 12).putLong(sid);
        addr(peer);
        addr(local);
        end(vt);
    }

    public void wrote(long n, long vt) throws IOException {
        start(Wire.WROTE, 4).putInt((int) n);
        end(vt);
    }

    /** Stream bytes read: {@code length} bytes of {@code data} from {@code offset}. */
    public void data(byte[] data, int offset, int length, long vt) throws IOException {
        start(Wire.DATA, 4 + length).putInt(length).put(data, offset, length);
        end(vt);
    }

    public void eof(long vt) throws IOException {
        simple(Wire.EOF, vt);
    }

    public void ready(long revents, long vt) throws IOException {
        start(Wire.READY, 4).putInt((int) revents);
        end(vt);
    }

    public void unwaitAck(long vt) throws IOException {
        simple(Wire.UNWAIT_ACK, vt);
    }

    public void status(long state, long soError, VAddr local, VAddr peer, long unread, long room, long vt)
            throws IOException {
        start(Wire.STATUS, 4 + 4 + 12 + 4 + 4).putInt((int) state).putInt((int) soError);
        addr(local);
        addr(peer);
        buf.putInt((int) unread).putInt((int) room);
        end(vt);
    }

    /** Starts a frame of tag + {@code fields} bytes + the trailing vt; returns the buffer positioned after the tag. */
    private ByteBuffer start(int tag, int fields) {
        int need = 4 + 1 + fields + 8;
        if (buf.capacity() < need) {
            buf = ByteBuffer.allocateDirect(need).order(ByteOrder.LITTLE_ENDIAN);
        }
        buf.clear();
        return buf.putInt(need - 4).put((byte) tag);
    }

    private void end(long vt) throws IOException {
        buf.putLong(vt);
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
