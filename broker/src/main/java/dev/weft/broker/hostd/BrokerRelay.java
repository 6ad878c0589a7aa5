package dev.weft.broker.hostd;

import dev.weft.broker.AcceptLoop;
import dev.weft.broker.PeerCheck;
import dev.weft.broker.PrivateDirectory;
import dev.weft.broker.auth.SharedToken;
import dev.weft.broker.auth.TokenHandshake;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A host agent's local door to a remote broker: nodes on this host connect to a Unix socket in a private
 * directory (mode 0700, peer uid checked, exactly like the broker's own), and each such connection is carried to
 * the broker's TCP listener as one TCP connection of its own — one broker connection per simulated socket, as the
 * spec wants. When the run has a shared token the relay answers the broker's challenge for each connection, which
 * the shim cannot do (the spec's wire protocol has no place for a token). Bytes are passed through unchanged.
 */
public final class BrokerRelay implements AutoCloseable {
    private static final int BUFFER = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MS = 5000;

    private final String label;
    private final InetSocketAddress broker;
    private final SharedToken token;
    private final Consumer<String> diagnostics;
    private final Path directory;
    private final Path socketPath;
    private final ServerSocketChannel listener;
    private final PeerCheck peerCheck;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private BrokerRelay(String label, InetSocketAddress broker, SharedToken token, Consumer<String> diagnostics,
            Path directory) throws IOException {
        this.label = label;
        this.broker = broker;
        this.token = token;
        this.diagnostics = diagnostics;
        this.directory = directory;
        this.socketPath = directory.resolve("broker.sock");
        this.peerCheck = new PeerCheck(directory);
        this.listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        listener.bind(UnixDomainSocketAddress.of(socketPath), 1024);
    }

    /** Starts a relay to {@code broker} (token null: the broker asks for none); its lines start "weft hostd:". */
    public static BrokerRelay start(Path parent, InetSocketAddress broker, SharedToken token,
            Consumer<String> diagnostics) throws IOException {
        return start("weft hostd", parent, broker, token, diagnostics);
    }

    /** As above; {@code label} starts each diagnostic line (the command that runs the relay). */
    public static BrokerRelay start(String label, Path parent, InetSocketAddress broker, SharedToken token,
            Consumer<String> diagnostics) throws IOException {
        BrokerRelay r = PrivateDirectory.create(parent, "weft-hostd-",
                dir -> new BrokerRelay(label, broker, token, diagnostics, dir));
        thread("weft-relay-accept", r::acceptLoop);
        return r;
    }

    /** The local socket nodes connect to (their {@code WEFT_BROKER}). */
    public Path socketPath() {
        return socketPath;
    }

    private void acceptLoop() {
        Consumer<String> failed = why -> diagnostics.accept(label + ": relay accept failed: " + why);
        AcceptLoop.run(listener, () -> closed, failed, local -> {
            if (peerCheck.admit(local, diagnostics, label + ": refused a local connection: ")) {
                thread("weft-relay-open", () -> carry(local));
            }
            return true;
        });
    }

    /** Opens this connection's own TCP connection to the broker and passes bytes both ways until either ends. */
    private void carry(SocketChannel local) {
        open.add(local);
        SocketChannel remote = null;
        try {
            remote = SocketChannel.open();
            open.add(remote);
            remote.socket().connect(broker, CONNECT_TIMEOUT_MS);
            remote.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (token != null) {
                // a broker that accepts but never speaks must not hold this connection (and its node) forever
                remote.socket().setSoTimeout(TokenHandshake.TIMEOUT_MS);
                TokenHandshake.answer(token, remote.socket().getInputStream(), remote.socket().getOutputStream());
                remote.socket().setSoTimeout(0);
            }
        } catch (java.net.SocketTimeoutException e) {
            diagnostics.accept(label + ": broker " + address(broker) + " sent no token challenge within "
                    + TokenHandshake.TIMEOUT_MS / 1000 + " s; connection closed");
            closeBoth(local, remote);
            return;
        } catch (TokenHandshake.RefusedException e) {
            diagnostics.accept(label + ": broker " + address(broker) + ": " + e.getMessage());
            closeBoth(local, remote);
            return;
        } catch (IOException e) {
            if (!closed) {
                diagnostics.accept(label + ": cannot reach the broker at " + address(broker) + ": "
                        + e.getMessage());
            }
            closeBoth(local, remote);
            return;
        }
        SocketChannel r = remote;
        thread("weft-relay-up", () -> pump(local, r, true));
        pump(r, local, false);
    }

    /**
     * Copies from → to until either ends, then closes both (the other pump ends with them). The node's end ending
     * ({@code upward}) is passed on as a half-close instead: the node may wait for the broker to end the connection
     * (a windowed close waits until its Goodbye was read), and the broker does once it has read everything.
     */
    private void pump(SocketChannel from, SocketChannel to, boolean upward) {
        ByteBuffer buf = ByteBuffer.allocate(BUFFER);
        boolean ended = false;
        try {
            while (from.read(buf) >= 0) {
                buf.flip();
                while (buf.hasRemaining()) {
                    to.write(buf);
                }
                buf.clear();
            }
            if (upward) {
                to.shutdownOutput(); // the broker's end closes the pair (the other pump sees it)
                ended = true;
            }
        } catch (IOException e) {
            // one side went away: end the pair like an EOF (the broker records the disconnect)
        } finally {
            if (!ended) {
                closeBoth(from, to);
            }
        }
    }

    private void closeBoth(SocketChannel a, SocketChannel b) {
        if (a != null) {
            open.remove(a);
            closeQuietly(a);
        }
        if (b != null) {
            open.remove(b);
            closeQuietly(b);
        }
    }

    /** Stops accepting, ends every carried connection and removes the private directory. */
    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        for (SocketChannel c : open) {
            closeQuietly(c);
        }
        try {
            Files.deleteIfExists(socketPath);
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            diagnostics.accept(label + ": cannot remove " + directory + ": " + e.getMessage());
        }
    }

    static String address(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }

    private static void thread(String name, Runnable r) {
        Thread t = new Thread(null, r, name, 256 * 1024);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // already closed or failed
        }
    }
}
