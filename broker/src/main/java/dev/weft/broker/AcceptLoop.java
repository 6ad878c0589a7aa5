package dev.weft.broker;

import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The accept loop of a listening socket, shared by the broker and the host agent's relay. A closed listener ends
 * it quietly; any other accept failure is reported (unless the owner is closing) and accepting goes on, so one
 * failed accept does not stop a run.
 */
public final class AcceptLoop {

    /** What to do with an accepted connection; false stops accepting. */
    @FunctionalInterface
    public interface Handler {
        boolean accepted(SocketChannel connection);
    }

    private AcceptLoop() {
    }

    /**
     * Accepts until {@code closing} is true, the listener is closed or the handler says stop.
     *
     * @param failed told the message of each accept failure while not closing
     */
    public static void run(ServerSocketChannel listener, BooleanSupplier closing, Consumer<String> failed,
            Handler handler) {
        while (!closing.getAsBoolean()) {
            SocketChannel c;
            try {
                c = listener.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (closing.getAsBoolean()) {
                    return;
                }
                failed.accept(e.getMessage());
                continue;
            }
            if (!handler.accepted(c)) {
                return;
            }
        }
    }
}
