package dev.weft.vm.qemu;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.vm.Json;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

/**
 * A minimal QMP client over QEMU's Unix socket: the capabilities handshake, then one command at a time, each
 * answer awaited with a deadline (a wedged QEMU must not wedge the control plane). Asynchronous events
 * (SHUTDOWN, STOP, ...) arriving between answers are skipped: the runner polls {@code query-status} instead.
 */
public final class QmpClient implements Closeable {

    private final SocketChannel channel;
    private final Selector selector;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final long timeoutMillis;

    private QmpClient(SocketChannel channel, long timeoutMillis) throws IOException {
        this.channel = channel;
        this.timeoutMillis = timeoutMillis;
        channel.configureBlocking(false);
        this.selector = Selector.open();
        channel.register(selector, SelectionKey.OP_READ);
    }

    /**
     * Connects (retrying until QEMU has created the socket, at most {@code connectMillis}, and giving up at once
     * when {@code peerAlive} says QEMU is gone) and negotiates.
     */
    public static QmpClient connect(Path socket, long connectMillis, long timeoutMillis, BooleanSupplier peerAlive)
            throws IOException {
        long deadline = System.nanoTime() + connectMillis * 1_000_000L;
        while (true) {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
                QmpClient client = new QmpClient(ch, timeoutMillis);
                JsonNode greeting = client.readMessage();
                if (!greeting.has("QMP")) {
                    client.close();
                    throw new IOException("QMP greeting expected, got " + Json.compact(greeting));
                }
                client.execute("qmp_capabilities", null);
                return client;
            } catch (IOException e) {
                ch.close();
                if (System.nanoTime() > deadline || !peerAlive.getAsBoolean()) {
                    throw new IOException("no QMP connection on " + socket + ": " + e.getMessage(), e);
                }
                sleep(50);
            }
        }
    }

    /** Runs a command and returns its "return" member; a QMP "error" answer becomes an IOException. */
    public JsonNode execute(String command, ObjectNode arguments) throws IOException {
        ObjectNode msg = Json.MAPPER.createObjectNode();
        msg.put("execute", command);
        if (arguments != null) {
            msg.set("arguments", arguments);
        }
        ByteBuffer out = ByteBuffer.wrap((Json.compact(msg) + "\n").getBytes(StandardCharsets.UTF_8));
        while (out.hasRemaining()) {
            channel.write(out);
        }
        while (true) {
            JsonNode answer = readMessage();
            if (answer.has("return")) {
                return answer.get("return");
            }
            if (answer.has("error")) {
                throw new IOException("QMP " + command + " failed: " + answer.get("error").path("desc").asText());
            }
            // an asynchronous event: skip it
        }
    }

    /** Reads one newline-terminated JSON message, waiting at most the timeout. */
    private JsonNode readMessage() throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        ByteBuffer buf = ByteBuffer.allocate(4096);
        while (true) {
            byte[] have = pending.toByteArray();
            for (int i = 0; i < have.length; i++) {
                if (have[i] == '\n') {
                    String line = new String(have, 0, i, StandardCharsets.UTF_8);
                    pending.reset();
                    pending.write(have, i + 1, have.length - i - 1);
                    return Json.MAPPER.readTree(line);
                }
            }
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw new IOException("QMP did not answer within " + timeoutMillis + " ms");
            }
            selector.select(left);
            selector.selectedKeys().clear();
            buf.clear();
            int n = channel.read(buf);
            if (n < 0) {
                throw new IOException("QMP connection closed by QEMU");
            }
            pending.write(buf.array(), 0, n);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException {
        selector.close();
        channel.close();
    }
}
