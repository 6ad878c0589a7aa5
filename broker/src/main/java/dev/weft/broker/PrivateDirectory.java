package dev.weft.broker;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The private directory that holds a Unix socket of the broker or of the host agent's relay: only this user may
 * enter it, and its owner is whom {@link PeerCheck} compares peers with.
 */
public final class PrivateDirectory {

    /** Builds what lives in the new directory (typically binds the socket there). */
    @FunctionalInterface
    public interface Builder<T> {
        T build(Path directory) throws IOException;
    }

    /** How many names {@link #newDirectory} tries before it leaves the choice to the JDK. */
    private static final int ATTEMPTS = 100;
    /** The next name's suffix; starts from the clock so that two processes of one pid seldom meet. */
    private static final AtomicLong NEXT = new AtomicLong(System.nanoTime() & 0xffffffL);

    private PrivateDirectory() {
    }

    /**
     * mkdir of {@code prefix<pid>-<counter>}: mkdir(2) fails on any name that exists, a symbolic link included, so
     * the directory returned is always one this call created, as with {@link Files#createTempDirectory}; a name
     * someone else holds is skipped. Why not createTempDirectory itself: its random name comes from
     * {@code SecureRandom}, whose set-up cost every live run 17-67 ms before its first node could start
     * (docs/benchmarks.md, "Issue 24, third round"). It remains the fallback when every name tried is taken.
     */
    static Path newDirectory(Path parent, String prefix, Set<PosixFilePermission> owner) throws IOException {
        String stem = prefix + ProcessHandle.current().pid() + "-";
        for (int i = 0; i < ATTEMPTS; i++) {
            Path dir = parent.resolve(stem + Long.toString(NEXT.getAndIncrement(), 36));
            try {
                return Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(owner));
            } catch (FileAlreadyExistsException taken) {
                // someone else's (or a leftover): try the next name
            }
        }
        return Files.createTempDirectory(parent, prefix, PosixFilePermissions.asFileAttribute(owner));
    }

    /**
     * Creates a new directory {@code prefix*} under {@code parent} with mode exactly 0700 (whatever the umask did)
     * and builds {@code T} in it; if building fails the directory is removed again.
     */
    public static <T> T create(Path parent, String prefix, Builder<T> builder) throws IOException {
        Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
        Path dir = newDirectory(parent, prefix, owner);
        Files.setPosixFilePermissions(dir, owner);
        try {
            return builder.build(dir);
        } catch (IOException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
    }
}
