package dev.weft.broker.auth;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * The challenge/answer that opens a broker TCP connection when the broker has a shared token (ours; the wire
 * protocol of the spec has no place for one, so it precedes the first frame):
 *
 * <pre>
 *   broker → peer:  "WEFTAUTH" challenge[32]       (fresh random bytes per connection)
 *   peer → broker:  "WEFTAUTH" HMAC-SHA256(token, challenge)[32]
 *   broker → peer:  1 byte: 1 accepted (frames follow), 0 refused (then the broker closes)
 * </pre>
 *
 * A shim that connects directly sends its Hello frame first; its first 8 bytes are not the magic, so it is
 * refused at once (no timeout needed). A peer that sends nothing is refused after {@link #TIMEOUT_MS}.
 */
public final class TokenHandshake {
    static final byte[] MAGIC = "WEFTAUTH".getBytes(StandardCharsets.US_ASCII);
    /** How long the broker waits for a peer's answer. */
    public static final int TIMEOUT_MS = 5000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private TokenHandshake() {
    }

    /** A fresh random challenge (never recorded: it authenticates, it decides nothing in the run). */
    public static byte[] challenge() {
        byte[] c = new byte[SharedToken.LENGTH];
        RANDOM.nextBytes(c);
        return c;
    }

    /**
     * The broker's side. The streams must be the connection's raw streams (no buffering beyond what is read
     * here). Returns null if the peer proved the token, else why it is refused (it has been told).
     */
    public static String admit(SharedToken token, InputStream in, OutputStream out) throws IOException {
        byte[] challenge = challenge();
        out.write(MAGIC);
        out.write(challenge);
        out.flush();
        byte[] magic;
        byte[] answer;
        try {
            magic = readFully(in, MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                out.write(0);
                out.flush();
                return "missing token (it spoke before answering the token challenge)";
            }
            answer = readFully(in, SharedToken.LENGTH);
        } catch (SocketTimeoutException e) {
            return "missing token (no answer to the token challenge within " + TIMEOUT_MS / 1000 + " s)";
        } catch (EOFException e) {
            return "missing token (closed before answering the token challenge)";
        }
        if (!token.accepts(challenge, answer)) {
            out.write(0);
            out.flush();
            return "wrong token";
        }
        out.write(1);
        out.flush();
        return null;
    }

    /** The connecting side: answers the challenge; throws {@link RefusedException} when the broker says no. */
    public static void answer(SharedToken token, InputStream in, OutputStream out) throws IOException {
        byte[] magic = readFully(in, MAGIC.length);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new RefusedException("the broker sent no token challenge (is it running without a token?)");
        }
        byte[] challenge = readFully(in, SharedToken.LENGTH);
        out.write(MAGIC);
        out.write(token.answer(challenge));
        out.flush();
        int verdict = in.read();
        if (verdict != 1) {
            throw new RefusedException("the broker refused our token");
        }
    }

    private static byte[] readFully(InputStream in, int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length < n) {
            throw new EOFException();
        }
        return b;
    }

    /** The other side refused the handshake. */
    public static final class RefusedException extends IOException {
        private static final long serialVersionUID = 1L;

        public RefusedException(String message) {
            super(message);
        }
    }
}
