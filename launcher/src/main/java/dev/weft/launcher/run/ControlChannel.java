package dev.weft.launcher.run;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** The host agent's control connection: JSON lines ({@link ControlLine}) both ways over one TCP socket. */
final class ControlChannel implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    ControlChannel(Socket socket) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    Socket socket() {
        return socket;
    }

    /** The peer as {@code ip:port}, for messages. */
    String peer() {
        return socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    /** Writes one message; safe from several threads. */
    void send(ControlLine line) throws IOException {
        byte[] b = (line.text() + "\n").getBytes(StandardCharsets.UTF_8);
        synchronized (out) {
            out.write(b);
            out.flush();
        }
    }

    /** The next message; {@link EOFException} at the end of the stream. */
    ControlLine receive() throws IOException, ControlLine.BadLineException {
        return receive(ControlLine.MAX_LINE);
    }

    /**
     * The next message of at most {@code maxLine} bytes (before authentication a peer gets only
     * {@link ControlLine#MAX_HANDSHAKE_LINE}); the buffer grows with the bytes that arrive, never ahead of them.
     */
    ControlLine receive(int maxLine) throws IOException, ControlLine.BadLineException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(256);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("the connection ended");
            }
            if (c == '\n') {
                return ControlLine.parse(line.toString(StandardCharsets.UTF_8));
            }
            if (line.size() >= maxLine) {
                throw new ControlLine.BadLineException("a control line longer than " + maxLine + " bytes");
            }
            line.write(c);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
