package dev.weft.broker.auth;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A bound on a whole handshake in real time. A socket read timeout bounds each read, but a peer that trickles one
 * byte just inside it could hold a handshake (and its thread) for as many reads as the handshake has bytes; this
 * closes the connection when the whole exchange has not ended in time, which the waiting read sees as an error.
 *
 * <pre>
 * try (HandshakeDeadline d = HandshakeDeadline.arm(socket, 5000)) {
 *     ... the exchange ...
 *     if (d.expired()) ... // the connection was closed under us
 * }
 * </pre>
 */
public final class HandshakeDeadline implements AutoCloseable {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "weft-handshake-deadline");
        t.setDaemon(true);
        return t;
    });

    private final ScheduledFuture<?> task;
    private volatile boolean expired;

    private HandshakeDeadline(Closeable connection, long ms) {
        this.task = TIMER.schedule(() -> {
            expired = true;
            try {
                connection.close();
            } catch (IOException e) {
                // already closed
            }
        }, ms, TimeUnit.MILLISECONDS);
    }

    /** Closes {@code connection} after {@code ms} unless {@link #close()} comes first. */
    public static HandshakeDeadline arm(Closeable connection, long ms) {
        return new HandshakeDeadline(connection, ms);
    }

    /** True if the deadline passed and the connection was closed. */
    public boolean expired() {
        return expired;
    }

    /** The handshake ended in time: the connection stays open. */
    @Override
    public void close() {
        task.cancel(false);
    }
}
