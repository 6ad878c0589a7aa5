package dev.weft.launcher.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A scripted stand-in for the broker's TCP side, written from docs/design/protocol-v3.md §2 for the
 * shim's own tests while the real broker's TCP support is built on another branch: every segment
 * arrives at once (no latency, no faults, no recording), connections are established the moment a
 * listener exists, a receive buffer of {@link #BUFFER} bytes gives back-pressure, and held requests
 * (blocking accept/read/write, TcpWait) are answered when the state they wait for holds. Deadlines
 * are only honoured when they have already passed (a zero-timeout probe). One lock for everything.
 */
final class TcpWireBroker implements AutoCloseable {
    static final int BUFFER = 64 * 1024;

    // tags (protocol-v3.md §2)
    static final int HELLO = 1;
    static final int TCP_BIND = 16;
    static final int TCP_LISTEN = 17;
    static final int TCP_CONNECT = 18;
    static final int TCP_ACCEPT = 19;
    static final int TCP_ADOPT = 20;
    static final int TCP_WRITE = 21;
    static final int TCP_READ = 22;
    static final int TCP_SHUTDOWN = 23;
    static final int TCP_ABORT = 24;
    static final int TCP_WAIT = 25;
    static final int TCP_UNWAIT = 26;
    static final int TCP_STATUS = 27;
    static final int ACK = 1;
    static final int EMPTY = 3;
    static final int ERROR = 4;
    static final int BOUND = 5;
    static final int ACCEPTED = 7;
    static final int WROTE = 8;
    static final int DATA = 9;
    static final int EOF = 10;
    static final int READY = 11;
    static final int UNWAIT_ACK = 12;
    static final int STATUS = 13;

    static final int ECONNREFUSED = 111;
    static final int ECONNRESET = 104;
    static final int EPIPE = 32;
    static final int ENOTCONN = 107;
    static final int EADDRINUSE = 98;
    static final int EINVAL = 22;

    record Addr(int ip, int port) {
    }

    /** One simulated socket: the state of one broker connection (or of an accepted stream not yet adopted). */
    private static final class Sock {
        SocketChannel ch;
        int node;
        Addr local;
        Addr peerAddr;
        int state; // protocol-v3 Status.state
        int soError;
        boolean listening;
        final ArrayDeque<Sock> backlog = new ArrayDeque<>();
        final ArrayDeque<Byte> rx = new ArrayDeque<>();
        Sock peer;
        long sid = -1;
        boolean finIn; // the peer will send nothing more
        boolean reset;
        boolean shutWr;
        boolean closed;
        boolean abortOnClose;
        ByteBuffer held; // the held request (tag first), or null
        int heldTag;
    }

    private final FakeBrokerSocket socket;
    private final Object lock = new Object();
    private final List<Sock> socks = new ArrayList<>();
    private final Map<Long, Sock> unadopted = new HashMap<>();
    private long nextSid;
    private int nextEphemeral = 40000;
    private long requests;

    private TcpWireBroker() throws IOException {
        socket = new FakeBrokerSocket("weft-tcpwire", "tcp-wire", (ch, id) -> {
            Sock s = new Sock();
            s.ch = ch;
            synchronized (lock) {
                socks.add(s);
            }
            return () -> serve(s);
        });
    }

    static TcpWireBroker start() throws IOException {
        return new TcpWireBroker();
    }

    String endpoint() {
        return socket.endpoint();
    }

    long requests() {
        synchronized (lock) {
            return requests;
        }
    }

    private void serve(Sock s) {
        try (SocketChannel ch = s.ch) {
            while (true) {
                ByteBuffer m = WireFrames.read(ch);
                if (m == null) {
                    return;
                }
                synchronized (lock) {
                    requests++;
                    if (!handle(s, m)) {
                        return;
                    }
                    pump();
                }
            }
        } catch (IOException e) {
            // end of the connection: the socket's last close
        } finally {
            synchronized (lock) {
                closeSock(s);
                pump();
            }
        }
    }

    private void closeSock(Sock s) {
        if (s.closed) {
            return;
        }
        s.closed = true;
        s.listening = false;
        for (Sock pending : s.backlog) {
            if (pending.peer != null) {
                pending.peer.reset = true;
            }
        }
        Sock p = s.peer;
        if (p != null) {
            if (s.abortOnClose || !s.rx.isEmpty()) {
                p.reset = true;
            } else {
                p.finIn = true;
            }
        }
    }

    /** Handles one request; false ends the connection. */
    private boolean handle(Sock s, ByteBuffer m) throws IOException {
        int tag = m.get() & 0xff;
        if (s.held != null && tag != TCP_UNWAIT) {
            return false; // protocol violation: only TcpUnwait may follow a held request
        }
        switch (tag) {
            case HELLO -> {
                s.node = m.getInt();
                reply(s, buf(ACK).putLong(0));
            }
            case TCP_BIND -> {
                Addr a = addr(m);
                int ip = a.ip() == 0 ? 0x7F000001 + s.node : a.ip();
                int port = a.port();
                if (port == 0) {
                    while (inUse(ip, nextEphemeral)) {
                        nextEphemeral++;
                    }
                    port = nextEphemeral++;
                } else if (inUse(ip, port)) {
                    reply(s, buf(ERROR).putInt(EADDRINUSE).putLong(0));
                    return true;
                }
                s.local = new Addr(ip, port);
                s.state = 1;
                reply(s, putAddr(buf(BOUND), s.local).putLong(0));
            }
            case TCP_LISTEN -> {
                m.getInt();
                s.listening = true;
                s.state = 2;
                reply(s, buf(ACK).putLong(0));
            }
            case TCP_CONNECT -> {
                Addr dst = addr(m);
                m.getLong();
                boolean nonblocking = m.get() != 0;
                if (s.local == null) {
                    int ip = 0x7F000001 + s.node;
                    while (inUse(ip, nextEphemeral)) {
                        nextEphemeral++;
                    }
                    s.local = new Addr(ip, nextEphemeral++);
                }
                Sock l = listener(dst);
                if (l == null) {
                    s.state = 0;
                    s.soError = ECONNREFUSED;
                    if (nonblocking) {
                        reply(s, buf(ACK).putLong(0));
                    } else {
                        s.soError = 0;
                        reply(s, buf(ERROR).putInt(ECONNREFUSED).putLong(0));
                    }
                    return true;
                }
                Sock server = new Sock();
                server.node = l.node;
                server.local = l.local;
                server.peerAddr = s.local;
                server.state = 4;
                server.sid = nextSid++;
                server.peer = s;
                s.peer = server;
                s.peerAddr = dst;
                s.state = 4;
                l.backlog.add(server);
                if (nonblocking) {
                    reply(s, buf(ACK).putLong(0));
                } else {
                    reply(s, putAddr(putAddr(buf(6), s.local), dst).putLong(0));
                }
            }
            case TCP_ADOPT -> {
                long sid = m.getLong();
                Sock a = unadopted.remove(sid);
                if (a == null) {
                    reply(s, buf(ERROR).putInt(EINVAL).putLong(0));
                    return true;
                }
                // the accepted stream's state moves onto this connection
                s.node = a.node;
                s.local = a.local;
                s.peerAddr = a.peerAddr;
                s.state = a.state;
                s.sid = sid;
                s.peer = a.peer;
                s.finIn = a.finIn;
                s.reset = a.reset;
                s.rx.addAll(a.rx);
                if (s.peer != null) {
                    s.peer.peer = s;
                }
                reply(s, buf(ACK).putLong(0));
            }
            case TCP_ABORT -> s.abortOnClose = true;
            case TCP_UNWAIT -> {
                if (s.held != null && s.heldTag == TCP_WAIT) {
                    int events = s.held.getInt(1);
                    s.held = null;
                    reply(s, buf(READY).putInt(revents(s) & (events | 0x18 | 0x2000)).putLong(0));
                }
                reply(s, buf(UNWAIT_ACK).putLong(0));
            }
            case TCP_STATUS -> {
                int err = s.soError;
                if (s.state == 0 && err != 0) {
                    s.soError = 0; // read once, as the kernel's SO_ERROR
                }
                int state = s.reset ? 6 : s.state == 4 && s.finIn ? 5 : s.state;
                ByteBuffer b = buf(STATUS).putInt(state).putInt(err);
                putAddr(b, s.local == null ? new Addr(0, 0) : s.local);
                putAddr(b, s.peerAddr == null ? new Addr(0, 0) : s.peerAddr);
                reply(s, b.putInt(s.rx.size()).putInt(s.peer == null ? 0 : room(s.peer)).putLong(0));
            }
            case TCP_ACCEPT, TCP_READ, TCP_WRITE, TCP_SHUTDOWN, TCP_WAIT -> {
                m.position(0);
                s.held = m;
                s.heldTag = tag;
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private static int room(Sock receiver) {
        return receiver.closed ? 0 : BUFFER - receiver.rx.size();
    }

    private boolean inUse(int ip, int port) {
        for (Sock o : socks) {
            if (!o.closed && o.local != null && o.local.port() == port && o.local.ip() == ip && o.peer == null) {
                return true;
            }
        }
        return false;
    }

    private Sock listener(Addr dst) {
        for (Sock o : socks) {
            if (o.listening && !o.closed && o.local.port() == dst.port() && o.local.ip() == dst.ip()) {
                return o;
            }
        }
        return null;
    }

    private int revents(Sock s) {
        int r = 0;
        if (s.listening) {
            return s.backlog.isEmpty() ? 0 : 1;
        }
        if (s.state == 0 && s.soError != 0) {
            return 0x8 | 0x10;
        }
        if (!s.rx.isEmpty() || s.finIn || s.reset) {
            r |= 1;
        }
        if (s.state == 4 && !s.reset && !s.shutWr && s.peer != null && room(s.peer) > 0) {
            r |= 4;
        }
        if (s.finIn || s.reset) {
            r |= 0x2000;
        }
        if (s.reset) {
            r |= 0x8 | 0x10;
        }
        if (s.finIn && s.shutWr) {
            r |= 0x10;
        }
        return r;
    }

    /** Answers every held request whose condition holds now. */
    private void pump() {
        boolean progress = true;
        while (progress) {
            progress = false;
            for (Sock s : List.copyOf(socks)) {
                if (s.held != null && !s.closed) {
                    try {
                        progress |= tryHeld(s, true);
                    } catch (IOException e) {
                        s.held = null;
                    }
                }
            }
        }
    }

    /** Tries the held request of s: true when it was answered. */
    private boolean tryHeld(Sock s, boolean mayHold) throws IOException {
        ByteBuffer m = s.held;
        m.position(1);
        switch (s.heldTag) {
            case TCP_ACCEPT -> {
                m.getLong();
                boolean blocking = m.get() != 0;
                Sock a = s.backlog.poll();
                if (a == null) {
                    if (blocking) {
                        return false;
                    }
                    s.held = null;
                    reply(s, buf(EMPTY).putLong(0));
                    return true;
                }
                unadopted.put(a.sid, a);
                s.held = null;
                reply(s, putAddr(putAddr(buf(ACCEPTED).putLong(a.sid), a.peerAddr), a.local).putLong(0));
                return true;
            }
            case TCP_READ -> {
                int max = m.getInt();
                boolean peek = (m.getInt() & 1) != 0;
                m.getLong();
                boolean blocking = m.get() != 0;
                if (s.rx.isEmpty()) {
                    ByteBuffer r;
                    if (s.reset) {
                        r = buf(ERROR).putInt(ECONNRESET).putLong(0);
                    } else if (s.finIn) {
                        r = buf(EOF).putLong(0);
                    } else if (s.state != 4) {
                        r = buf(ERROR).putInt(ENOTCONN).putLong(0);
                    } else if (blocking) {
                        return false;
                    } else {
                        r = buf(EMPTY).putLong(0);
                    }
                    s.held = null;
                    reply(s, r);
                    return true;
                }
                int n = Math.min(max, s.rx.size());
                byte[] data = new byte[n];
                var it = s.rx.iterator();
                for (int i = 0; i < n; i++) {
                    data[i] = it.next();
                }
                if (!peek) {
                    for (int i = 0; i < n; i++) {
                        s.rx.poll();
                    }
                }
                s.held = null;
                reply(s, buf(DATA, 4 + n + 8).putInt(n).put(data).putLong(0));
                return true;
            }
            case TCP_WRITE -> {
                byte[] data = new byte[m.getInt()];
                m.get(data);
                m.getLong();
                boolean blocking = m.get() != 0;
                ByteBuffer r;
                if (s.reset) {
                    r = buf(ERROR).putInt(ECONNRESET).putLong(0);
                } else if (s.shutWr || s.peer == null || s.peer.closed) {
                    r = buf(ERROR).putInt(s.state == 4 ? EPIPE : ENOTCONN).putLong(0);
                } else {
                    int n = Math.min(data.length, room(s.peer));
                    if (n == 0 && blocking) {
                        return false;
                    }
                    for (int i = 0; i < n; i++) {
                        s.peer.rx.add(data[i]);
                    }
                    r = buf(WROTE).putInt(n).putLong(0);
                }
                s.held = null;
                reply(s, r);
                return true;
            }
            case TCP_SHUTDOWN -> {
                int how = m.getInt();
                s.held = null;
                if (s.state != 4) {
                    reply(s, buf(ERROR).putInt(ENOTCONN).putLong(0));
                    return true;
                }
                if (how >= 1 && !s.shutWr) {
                    s.shutWr = true;
                    if (s.peer != null) {
                        s.peer.finIn = true;
                    }
                }
                reply(s, buf(ACK).putLong(0));
                return true;
            }
            case TCP_WAIT -> {
                int events = m.getInt();
                long vt = m.getLong();
                long deadline = m.getLong();
                int r = revents(s) & (events | 0x18 | 0x2000);
                if (r == 0 && !(deadline != 0 && deadline <= vt)) {
                    return false;
                }
                s.held = null;
                reply(s, buf(READY).putInt(r).putLong(0));
                return true;
            }
            default -> {
                s.held = null;
                return true;
            }
        }
    }

    private static ByteBuffer buf(int tag) {
        return buf(tag, 64);
    }

    private static ByteBuffer buf(int tag, int room) {
        return ByteBuffer.allocate(1 + room).order(ByteOrder.LITTLE_ENDIAN).put((byte) tag);
    }

    private static ByteBuffer putAddr(ByteBuffer b, Addr a) {
        return b.putInt(a.ip()).putShort((short) a.port());
    }

    private static Addr addr(ByteBuffer m) {
        return new Addr(m.getInt(), Short.toUnsignedInt(m.getShort()));
    }

    private static void reply(Sock s, ByteBuffer body) throws IOException {
        WireFrames.write(s.ch, body);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
