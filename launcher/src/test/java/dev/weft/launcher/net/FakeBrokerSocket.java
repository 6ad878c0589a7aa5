package dev.weft.launcher.net;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The listening side the shim tests' fake brokers share ({@link WireBroker}, {@link TcpWireBroker}): a Unix socket in
 * a fresh temporary folder, one daemon thread per connection, and a close that ends every connection, so waiting
 * shims see the broker go away.
 */
final class FakeBrokerSocket implements AutoCloseable {

    /** What a broker does with a new connection (numbered from 0): note it, and say how to serve it. */
    interface Acceptor {
        /** Called on the accept thread; the returned work then runs on the connection's own thread. */
        Runnable accepted(SocketChannel ch, int id);
    }

    private final Path dir;
    private final Path socket;
    private final ServerSocketChannel server;
    private final String threadName;
    private final Acceptor acceptor;
    private final List<SocketChannel> connections = new ArrayList<>();
    private volatile boolean closed;

    /** Listens in a new temporary folder named after prefix; threads are named after threadName. */
    FakeBrokerSocket(String prefix, String threadName, Acceptor acceptor) throws IOException {
        this.threadName = threadName;
        this.acceptor = acceptor;
        dir = Files.createTempDirectory(prefix);
        socket = dir.resolve("broker.sock");
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread t = new Thread(this::acceptLoop, threadName + "-accept");
        t.setDaemon(true);
        t.start();
    }

    /** The WEFT_BROKER value. */
    String endpoint() {
        return socket.toString();
    }

    boolean closed() {
        return closed;
    }

    private void acceptLoop() {
        for (int id = 0; !closed; id++) {
            try {
                SocketChannel ch = server.accept();
                synchronized (connections) {
                    connections.add(ch);
                }
                Thread t = new Thread(acceptor.accepted(ch, id), threadName + "-conn-" + id);
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        synchronized (connections) {
            for (SocketChannel c : connections) {
                c.close();
            }
        }
        Files.deleteIfExists(socket);
        Files.deleteIfExists(dir);
    }
}
