package dev.weft.broker;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

/**
 * One simulated TCP socket spoken at the wire level, written from the TCP message tables of docs/tcp.md alone (it
 * shares no code with the broker; frames are read as {@link SpecClient} reads them): Hello, then TCP requests;
 * replies parsed byte by byte, little-endian.
 */
final class TcpClient implements AutoCloseable {
    /** A parsed reply; fields a tag does not carry are 0 / null. */
    record Reply(int tag, long errno, long ip, int port, long ip2, int port2, long sid, long n, byte[] data,
            long state, long unread, long room, long vt) {
        static final int ACK = 1;
        static final int EMPTY = 3;
        static final int ERROR = 4;
        static final int BOUND = 5;
        static final int CONNECTED = 6;
        static final int ACCEPTED = 7;
        static final int WROTE = 8;
        static final int DATA = 9;
        static final int EOF = 10;
        static final int READY = 11;
        static final int UNWAIT_ACK = 12;
        static final int STATUS = 13;

        String text() {
            return new String(data, java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    final SocketChannel channel;
    private final OutputStream out;
    private final DataInputStream in;

    TcpClient(Path socket, long node) throws IOException {
        channel = SocketChannel.open(StandardProtocolFamily.UNIX);
        channel.connect(UnixDomainSocketAddress.of(socket));
        out = Channels.newOutputStream(channel);
        in = new DataInputStream(Channels.newInputStream(channel));
        Reply r = call(msg(9).put((byte) 1).putInt((int) node).putInt(0));
        if (r.tag() != Reply.ACK) {
            throw new IOException("Hello: tag " + r.tag());
        }
    }

    static long ip(int node) {
        return 0x7F000001L + node;
    }

    private static ByteBuffer msg(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    Reply bind(long ip, int port) throws IOException {
        return call(msg(7).put((byte) 16).putInt((int) ip).putShort((short) port));
    }

    Reply listen(int backlog) throws IOException {
        return call(msg(5).put((byte) 17).putInt(backlog));
    }

    void connectRequest(long ip, int port, long vt, boolean nonblocking) throws IOException {
        send(msg(16).put((byte) 18).putInt((int) ip).putShort((short) port).putLong(vt)
                .put((byte) (nonblocking ? 1 : 0)));
    }

    Reply connect(long ip, int port, long vt, boolean nonblocking) throws IOException {
        connectRequest(ip, port, vt, nonblocking);
        return read();
    }

    void acceptRequest(long vt, boolean blocking) throws IOException {
        send(msg(10).put((byte) 19).putLong(vt).put((byte) (blocking ? 1 : 0)));
    }

    Reply accept(long vt, boolean blocking) throws IOException {
        acceptRequest(vt, blocking);
        return read();
    }

    Reply adopt(long sid) throws IOException {
        return call(msg(9).put((byte) 20).putLong(sid));
    }

    void writeRequest(byte[] payload, long vt, boolean blocking) throws IOException {
        send(msg(1 + 4 + payload.length + 9).put((byte) 21).putInt(payload.length).put(payload).putLong(vt)
                .put((byte) (blocking ? 1 : 0)));
    }

    Reply write(byte[] payload, long vt, boolean blocking) throws IOException {
        writeRequest(payload, vt, blocking);
        return read();
    }

    void readRequest(int max, boolean peek, long vt, boolean blocking) throws IOException {
        send(msg(18).put((byte) 22).putInt(max).putInt(peek ? 1 : 0).putLong(vt).put((byte) (blocking ? 1 : 0)));
    }

    Reply read(int max, boolean peek, long vt, boolean blocking) throws IOException {
        readRequest(max, peek, vt, blocking);
        return read();
    }

    Reply shutdown(int how) throws IOException {
        return call(msg(5).put((byte) 23).putInt(how));
    }

    void abort() throws IOException {
        send(msg(1).put((byte) 24));
    }

    void waitRequest(int events, long vt, long deadline) throws IOException {
        send(msg(21).put((byte) 25).putInt(events).putLong(vt).putLong(deadline));
    }

    /** TcpWait with its trailing flags byte (protocol-v3 §2a). */
    void waitRequest(int events, long vt, long deadline, int flags) throws IOException {
        send(msg(22).put((byte) 25).putInt(events).putLong(vt).putLong(deadline).put((byte) flags));
    }

    /** TcpClose{local_vt} (windowed): the last close at the node's clock. */
    Reply tcpClose(long vt) throws IOException {
        return call(msg(9).put((byte) 29).putLong(vt));
    }

    void unwaitRequest() throws IOException {
        send(msg(1).put((byte) 26));
    }

    Reply status() throws IOException {
        return call(msg(1).put((byte) 27));
    }

    Reply call(ByteBuffer m) throws IOException {
        send(m);
        return read();
    }

    void send(ByteBuffer m) throws IOException {
        byte[] body = java.util.Arrays.copyOf(m.array(), m.position());
        ByteBuffer f = msg(4 + body.length).putInt(body.length).put(body);
        out.write(f.array());
        out.flush();
    }

    /** True if a reply is already waiting to be read (a held request was answered). */
    boolean replyWaiting() throws IOException {
        return in.available() > 0;
    }

    Reply read() throws IOException {
        ByteBuffer b = SpecClient.readFrame(in);
        int tag = b.get() & 0xFF;
        long errno = 0;
        long ip = 0;
        int port = 0;
        long ip2 = 0;
        int port2 = 0;
        long sid = 0;
        long n = 0;
        byte[] data = null;
        long state = 0;
        long unread = 0;
        long room = 0;
        switch (tag) {
            case Reply.ERROR -> errno = Integer.toUnsignedLong(b.getInt());
            case Reply.BOUND -> {
                ip = Integer.toUnsignedLong(b.getInt());
                port = Short.toUnsignedInt(b.getShort());
            }
            case Reply.CONNECTED -> {
                ip = Integer.toUnsignedLong(b.getInt());
                port = Short.toUnsignedInt(b.getShort());
                ip2 = Integer.toUnsignedLong(b.getInt());
                port2 = Short.toUnsignedInt(b.getShort());
            }
            case Reply.ACCEPTED -> {
                sid = b.getLong();
                ip = Integer.toUnsignedLong(b.getInt());
                port = Short.toUnsignedInt(b.getShort());
                ip2 = Integer.toUnsignedLong(b.getInt());
                port2 = Short.toUnsignedInt(b.getShort());
            }
            case Reply.WROTE, Reply.READY -> n = Integer.toUnsignedLong(b.getInt());
            case Reply.DATA -> {
                data = new byte[b.getInt()];
                b.get(data);
            }
            case Reply.STATUS -> {
                state = Integer.toUnsignedLong(b.getInt());
                errno = Integer.toUnsignedLong(b.getInt());
                ip = Integer.toUnsignedLong(b.getInt());
                port = Short.toUnsignedInt(b.getShort());
                ip2 = Integer.toUnsignedLong(b.getInt());
                port2 = Short.toUnsignedInt(b.getShort());
                unread = Integer.toUnsignedLong(b.getInt());
                room = Integer.toUnsignedLong(b.getInt());
            }
            default -> {
            }
        }
        return new Reply(tag, errno, ip, port, ip2, port2, sid, n, data, state, unread, room, b.getLong());
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
