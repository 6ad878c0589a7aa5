package dev.weft.broker.auth;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The optional shared secret of a multi-host run ({@code --token-file F} or {@code WEFT_TOKEN_FILE}): the file's
 * contents without trailing white space. A peer proves it knows the token by answering a fresh random challenge
 * with HMAC-SHA256(token, challenge), so the token itself never crosses the network and a recorded answer is
 * useless for the next connection. Answers are compared in constant time.
 */
public final class SharedToken {
    /** Our environment variable naming the token file (not in the spec; documented in docs/broker.md). */
    public static final String ENV = "WEFT_TOKEN_FILE";
    /** Length of a challenge and of an answer (HMAC-SHA256). */
    public static final int LENGTH = 32;
    private static final int MAX_FILE = 4096;

    private final byte[] secret;

    private SharedToken(byte[] secret) {
        this.secret = secret;
    }

    /** A token from its text (tests; the file form is {@link #read}). */
    public static SharedToken of(String text) {
        String t = text.strip();
        if (t.isEmpty()) {
            throw new IllegalArgumentException("empty token");
        }
        return new SharedToken(t.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Reads a token file; the message of the exception names the file and what is wrong. Like ssh with its keys,
     * a token that others on the machine may read is no secret: a file with any group or other permission bit is
     * refused with the {@code chmod} that fixes it. A symbolic link is followed, and the file it leads to is the
     * one checked and named ({@code tok -> /real/tok}).
     */
    public static SharedToken read(Path file) throws InvalidTokenFileException {
        byte[] bytes;
        String named = file.toString();
        try {
            Path real = file.toRealPath();
            if (Files.isSymbolicLink(file) || !real.equals(file.toAbsolutePath().normalize())) {
                named = file + " -> " + real;
            }
            if (!Files.isRegularFile(real)) {
                throw new InvalidTokenFileException(named + ": not a regular file");
            }
            String loose = loosePermissions(real);
            if (loose != null) {
                throw new InvalidTokenFileException(named + ": " + loose + ", so it is no secret; make it private"
                        + " with: chmod go-rwx " + real);
            }
            if (Files.size(real) > MAX_FILE) {
                throw new InvalidTokenFileException(named + ": a token file holds at most " + MAX_FILE + " bytes");
            }
            bytes = Files.readAllBytes(real);
        } catch (NoSuchFileException e) {
            throw new InvalidTokenFileException(named + ": no such file"
                    + (Files.isSymbolicLink(file) ? " (a symbolic link to a missing file)" : ""));
        } catch (IOException e) {
            throw new InvalidTokenFileException(named + ": cannot read: " + dev.weft.text.OsErrorText.of(e));
        }
        String text = new String(bytes, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            throw new InvalidTokenFileException(named + ": the token file is empty");
        }
        return new SharedToken(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Null if only the owner may read or write {@code f}, else what is too open (mode in octal). */
    private static String loosePermissions(Path f) throws IOException {
        java.util.Set<java.nio.file.attribute.PosixFilePermission> p;
        try {
            p = Files.getPosixFilePermissions(f);
        } catch (UnsupportedOperationException e) {
            return null; // no POSIX modes here: nothing to check
        }
        int mode = 0;
        for (java.nio.file.attribute.PosixFilePermission b : p) {
            mode |= 1 << (8 - b.ordinal());
        }
        if ((mode & 0077) == 0) {
            return null;
        }
        String who = (mode & 0070) != 0 && (mode & 0007) != 0 ? "group and others"
                : (mode & 0070) != 0 ? "its group" : "others";
        return String.format("mode %04o lets %s at the token", mode, who);
    }

    /** {@code --token-file} if given, else {@code WEFT_TOKEN_FILE} if set and not empty, else none. */
    public static Optional<SharedToken> resolve(Path option, Map<String, String> env)
            throws InvalidTokenFileException {
        if (option != null) {
            return Optional.of(read(option));
        }
        String v = env.get(ENV);
        if (v != null && !v.isEmpty()) {
            try {
                return Optional.of(read(Path.of(v)));
            } catch (InvalidTokenFileException e) {
                throw new InvalidTokenFileException(ENV + "=" + e.getMessage());
            }
        }
        return Optional.empty();
    }

    /** The answer to a challenge: HMAC-SHA256(token, challenge). */
    public byte[] answer(byte[] challenge) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(challenge);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /**
     * The answer to a challenge within one role of a connection: HMAC-SHA256(token, role || challenge). Each side of
     * a host agent's control channel proves the token in its own role, and neither role is the broker's plain
     * {@link #answer(byte[])}: so an answer one party gives can never be replayed as another's proof (an impostor
     * agent cannot pass the broker's challenge to its master as its own, nor reflect the master's challenge).
     */
    public byte[] answer(Role role, byte[] challenge) {
        byte[] prefix = role.prefix.getBytes(StandardCharsets.US_ASCII);
        byte[] m = new byte[prefix.length + challenge.length];
        System.arraycopy(prefix, 0, m, 0, prefix.length);
        System.arraycopy(challenge, 0, m, prefix.length, challenge.length);
        return answer(m);
    }

    /** True if {@code answer} is the right answer in {@code role}; constant time in the answer's bytes. */
    public boolean accepts(Role role, byte[] challenge, byte[] answer) {
        return MessageDigest.isEqual(answer(role, challenge), answer);
    }

    /** Who proves the token on a host agent's control channel (the broker's TCP handshake uses no role). */
    public enum Role {
        /** {@code weft run} proving itself to {@code weft hostd}. */
        MASTER("weft-hostd master\n"),
        /** {@code weft hostd} proving itself back to {@code weft run}. */
        AGENT("weft-hostd agent\n");

        private final String prefix;

        Role(String prefix) {
            this.prefix = prefix;
        }
    }

    /** True if {@code answer} is the right answer to {@code challenge}; constant time in the answer's bytes. */
    public boolean accepts(byte[] challenge, byte[] answer) {
        return MessageDigest.isEqual(answer(challenge), answer);
    }

    /** A token file that cannot be used; the message names the file. */
    public static final class InvalidTokenFileException extends Exception {
        private static final long serialVersionUID = 1L;

        public InvalidTokenFileException(String message) {
            super(message);
        }
    }
}
