package dev.weft.broker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import dev.weft.broker.auth.HandshakeDeadline;
import dev.weft.broker.auth.PeerGate;
import dev.weft.broker.auth.SharedToken;
import dev.weft.broker.auth.TokenHandshake;

/**
 * The live broker's listeners: a Unix-domain stream socket in a private directory (mode 0700, so only this user
 * can even reach it, and each peer's uid is checked as well), and a TCP socket only when asked for one (the
 * caller chooses the address; {@code weft run} defaults to loopback). Each accepted connection gets the next conn
 * id (accept order) and its own thread.
 */
public final class BrokerServer implements AutoCloseable {
    private static final String SOCKET_NAME = "broker.sock";
    private static final int BACKLOG = 1024;
    private static final long THREAD_STACK = 256 * 1024;

    private final OpSequencer sequencer;
    private final Consumer<String> diagnostics;
    private final boolean timeService;
    private final Path directory;
    private final Path socketPath;
    private final ServerSocketChannel unix;
    private final ServerSocketChannel tcp;
    private final PeerCheck peerCheck;
    /** The shared token TCP peers must prove (dev.weft.broker.auth), or null: TCP peers are not asked. */
    private SharedToken tcpToken;
    /** TCP peers still in the token handshake (closed at shutdown so their threads end at once). */
    private final Set<SocketChannel> handshaking = ConcurrentHashMap.newKeySet();
    /** Bounds the handshakes one peer address may have open at a time. */
    private final PeerGate unauthenticated = new PeerGate();
    private final Map<Long, Connection> live = new ConcurrentHashMap<>();
    /** Threads still running (finished connection threads remove themselves, so a long run does not pile them up). */
    private final Set<Thread> threads = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private BrokerServer(OpSequencer sequencer, Consumer<String> diagnostics, boolean timeService,
            Path directory, InetSocketAddress tcpAddress) throws IOException {
        this.sequencer = sequencer;
        this.diagnostics = diagnostics;
        this.timeService = timeService;
        this.directory = directory;
        this.socketPath = directory.resolve(SOCKET_NAME);
        this.peerCheck = new PeerCheck(directory);
        this.unix = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            unix.bind(UnixDomainSocketAddress.of(socketPath), BACKLOG);
            if (tcpAddress != null) {
                tcp = ServerSocketChannel.open();
                tcp.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                tcp.bind(tcpAddress, BACKLOG);
            } else {
                tcp = null;
            }
        } catch (IOException e) {
            unix.close();
            throw e;
        }
    }

    /**
     * Starts listening. The Unix socket lives in a new private directory under {@code parent} (mode 0700);
     * {@code tcpAddress} null means no TCP listener at all.
     */
    public static BrokerServer start(OpSequencer sequencer, Path parent, InetSocketAddress tcpAddress,
            boolean timeService, Consumer<String> diagnostics) throws IOException {
        return start(sequencer, parent, tcpAddress, null, timeService, diagnostics);
    }

    /**
     * As {@link #start(OpSequencer, Path, InetSocketAddress, boolean, Consumer)}; with a token, every TCP peer
     * must answer its challenge ({@link TokenHandshake}) before it gets a conn id.
     */
    public static BrokerServer start(OpSequencer sequencer, Path parent, InetSocketAddress tcpAddress,
            SharedToken tcpToken, boolean timeService, Consumer<String> diagnostics) throws IOException {
        BrokerServer s = PrivateDirectory.create(parent, "weft-broker-",
                dir -> new BrokerServer(sequencer, diagnostics, timeService, dir, tcpAddress));
        s.tcpToken = tcpToken;
        s.spawn("weft-broker-accept-unix", () -> s.acceptLoop(s.unix, true));
        if (s.tcp != null) {
            s.spawn("weft-broker-accept-tcp", () -> s.acceptLoop(s.tcp, false));
        }
        return s;
    }

    /** The Unix socket's path (a {@code WEFT_BROKER} value). */
    public Path socketPath() {
        return socketPath;
    }

    /** The private directory holding the socket. */
    public Path directory() {
        return directory;
    }

    /** The TCP listener's bound address, or null without one. */
    public InetSocketAddress tcpAddress() {
        try {
            return tcp == null ? null : (InetSocketAddress) tcp.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** True if TCP peers must prove a shared token. */
    public boolean tcpTokenRequired() {
        return tcpToken != null;
    }

    /** Connections currently open. */
    public int liveConnections() {
        return live.size();
    }

    private void acceptLoop(ServerSocketChannel server, boolean checkPeer) {
        AcceptLoop.run(server, () -> closed, why -> diagnostics.accept("weft broker: accept failed: " + why), c -> {
            if (checkPeer) {
                if (!peerCheck.admit(c, diagnostics, "weft broker: refused a connection: ")) {
                    return true;
                }
            } else {
                try {
                    c.setOption(StandardSocketOptions.TCP_NODELAY, true);
                } catch (IOException e) {
                    closeQuietly(c);
                    return true;
                }
                if (tcpToken != null) {
                    java.net.InetAddress from = peerAddress(c);
                    if (!unauthenticated.enter(from)) {
                        diagnostics.accept("weft broker: refused tcp peer " + who(c) + ": " + unauthenticated.refusal());
                        closeQuietly(c);
                        return true;
                    }
                    // the handshake waits for the peer: off the accept thread, before any conn id
                    handshaking.add(c);
                    spawn("weft-broker-auth", () -> {
                        try {
                            admitThenRegister(c);
                        } finally {
                            unauthenticated.leave(from);
                        }
                    });
                    return true;
                }
            }
            return register(c);
        });
    }

    /** Token handshake for a TCP peer; a refused peer is told, closed and named in one line. */
    private void admitThenRegister(SocketChannel c) {
        String who = who(c);
        try (HandshakeDeadline deadline = HandshakeDeadline.arm(c, TokenHandshake.TIMEOUT_MS)) {
            java.net.Socket s = c.socket();
            s.setSoTimeout(TokenHandshake.TIMEOUT_MS);
            String refusal;
            try {
                refusal = TokenHandshake.admit(tcpToken, s.getInputStream(), s.getOutputStream());
            } catch (IOException e) {
                if (!deadline.expired()) {
                    throw e;
                }
                // a peer trickling bytes just inside each read's timeout: the whole handshake has the same bound
                refusal = "missing token (no answer to the token challenge within " + TokenHandshake.TIMEOUT_MS / 1000
                        + " s)";
            }
            if (refusal != null) {
                diagnostics.accept("weft broker: refused tcp peer " + who + ": " + refusal);
                closeQuietly(c);
                return;
            }
            s.setSoTimeout(0);
        } catch (IOException e) {
            closeQuietly(c);
            return;
        } finally {
            handshaking.remove(c);
        }
        register(c);
    }

    private static String who(SocketChannel c) {
        try {
            return String.valueOf(c.getRemoteAddress()).replaceFirst("^/", "");
        } catch (IOException e) {
            return "a peer";
        }
    }

    private static java.net.InetAddress peerAddress(SocketChannel c) {
        try {
            return ((InetSocketAddress) c.getRemoteAddress()).getAddress();
        } catch (IOException | ClassCastException | NullPointerException e) {
            return java.net.InetAddress.getLoopbackAddress();
        }
    }

    /** Gives an accepted peer the next conn id and its thread; false once the broker is closed. */
    private boolean register(SocketChannel c) {
        synchronized (this) {
            if (closed) {
                closeQuietly(c);
                return false;
            }
            long id = sequencer.connect();
            Connection conn = new Connection(id, c, sequencer, diagnostics, timeService);
            live.put(id, conn);
            spawn("weft-conn-" + id, () -> {
                try {
                    conn.run();
                } finally {
                    live.remove(id);
                }
            });
        }
        return true;
    }

    private synchronized void spawn(String name, Runnable r) {
        Thread t = new Thread(null, () -> {
            try {
                r.run();
            } finally {
                threads.remove(Thread.currentThread());
            }
        }, name, THREAD_STACK);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /**
     * Stops accepting, ends every connection (recording their disconnects in conn id order), writes the log's
     * {@code end} record, and removes the socket directory.
     */
    @Override
    public void close() {
        List<Thread> toJoin;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toJoin = new ArrayList<>(threads);
        }
        closeQuietly(unix);
        if (tcp != null) {
            closeQuietly(tcp);
        }
        handshaking.forEach(BrokerServer::closeQuietly);
        sequencer.finish(); // disconnects still-open connections in id order, then the end record
        for (Connection c : live.values()) {
            c.shutdown();
        }
        for (Thread t : toJoin) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        try {
            Files.deleteIfExists(socketPath);
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            diagnostics.accept("weft broker: cannot remove " + directory + ": " + e.getMessage());
        }
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // already failed or closed
        }
    }
}
