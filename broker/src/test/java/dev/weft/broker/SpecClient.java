package dev.weft.broker;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * A wire-level broker client written from wire-and-abi.md §1–§3 alone (it shares no code with the broker or the
 * shim): builds frames byte by byte, little-endian, and parses replies the same way.
 */
final class SpecClient implements AutoCloseable {
    /** A parsed reply: tag 1 Ack, 2 Deliver, 3 Empty. */
    record Reply(int tag, long srcIp, int srcPort, long dstIp, int dstPort, byte[] payload, long vt) {
    }

    final SocketChannel channel;
    private final OutputStream out;
    private final DataInputStream in;

    SpecClient(Path socket) throws IOException {
        this(unix(socket));
    }

    /** Over a connection already open (TCP, or one that has passed the token handshake). */
    SpecClient(SocketChannel connected) {
        channel = connected;
        out = Channels.newOutputStream(channel);
        InputStream raw = Channels.newInputStream(channel);
        in = new DataInputStream(raw);
    }

    static long ip(int node) {
        return 0x7F000001L + node;
    }

    // ---- messages (tag + fields), framed by frame() ----

    static byte[] hello(long node, long host) {
        return msg(1 + 8).put((byte) 1).putInt((int) node).putInt((int) host).array();
    }

    static byte[] bind(long ip, int port) {
        return msg(1 + 6).put((byte) 2).putInt((int) ip).putShort((short) port).array();
    }

    static byte[] send(long srcIp, int srcPort, long dstIp, int dstPort, byte[] payload, long localVt) {
        return msg(1 + 6 + 6 + 4 + payload.length + 8).put((byte) 3).putInt((int) srcIp).putShort((short) srcPort)
                .putInt((int) dstIp).putShort((short) dstPort).putInt(payload.length).put(payload).putLong(localVt)
                .array();
    }

    static byte[] recv(long ip, int port, boolean blocking, long localVt) {
        return msg(1 + 6 + 1 + 8).put((byte) 4).putInt((int) ip).putShort((short) port)
                .put((byte) (blocking ? 1 : 0)).putLong(localVt).array();
    }

    static byte[] frontier(long localVt) {
        return msg(1 + 8).put((byte) 5).putLong(localVt).array();
    }

    static byte[] goodbye() {
        return new byte[] {6};
    }

    private static ByteBuffer msg(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static SocketChannel unix(Path socket) throws IOException {
        SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
        c.connect(UnixDomainSocketAddress.of(socket));
        return c;
    }

    static byte[] frame(byte[] message) {
        return ByteBuffer.allocate(4 + message.length).order(ByteOrder.LITTLE_ENDIAN).putInt(message.length)
                .put(message).array();
    }

    void write(byte[] raw) throws IOException {
        out.write(raw);
        out.flush();
    }

    void request(byte[] message) throws IOException {
        write(frame(message));
    }

    Reply call(byte[] message) throws IOException {
        request(message);
        return read();
    }

    long ack(byte[] message) throws IOException {
        Reply r = call(message);
        if (r.tag() != 1) {
            throw new IOException("expected Ack, got tag " + r.tag());
        }
        return r.vt();
    }

    /** Reads one frame (u32 little-endian length, then the message); returns the message, little-endian, at its tag. */
    static ByteBuffer readFrame(DataInputStream in) throws IOException {
        int len = Integer.reverseBytes(in.readInt());
        byte[] m = new byte[len];
        in.readFully(m);
        return ByteBuffer.wrap(m).order(ByteOrder.LITTLE_ENDIAN);
    }

    Reply read() throws IOException {
        ByteBuffer b = readFrame(in);
        int tag = b.get() & 0xFF;
        if (tag == 2) {
            long sip = Integer.toUnsignedLong(b.getInt());
            int sport = Short.toUnsignedInt(b.getShort());
            long dip = Integer.toUnsignedLong(b.getInt());
            int dport = Short.toUnsignedInt(b.getShort());
            byte[] p = new byte[b.getInt()];
            b.get(p);
            return new Reply(tag, sip, sport, dip, dport, p, b.getLong());
        }
        return new Reply(tag, 0, 0, 0, 0, null, b.getLong());
    }

    /** True if the broker closed the connection (end of stream) instead of sending anything more. */
    boolean closedByBroker() throws IOException {
        try {
            return in.read() < 0;
        } catch (EOFException e) {
            return true;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
