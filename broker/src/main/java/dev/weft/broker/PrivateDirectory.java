package dev.weft.broker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

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

    private PrivateDirectory() {
    }

    /**
     * Creates a new directory {@code prefix*} under {@code parent} with mode exactly 0700 (whatever the umask did)
     * and builds {@code T} in it; if building fails the directory is removed again.
     */
    public static <T> T create(Path parent, String prefix, Builder<T> builder) throws IOException {
        Set<PosixFilePermission> owner = PosixFilePermissions.fromString("rwx------");
        Path dir = Files.createTempDirectory(parent, prefix, PosixFilePermissions.asFileAttribute(owner));
        Files.setPosixFilePermissions(dir, owner);
        try {
            return builder.build(dir);
        } catch (IOException e) {
            Files.deleteIfExists(dir);
            throw e;
        }
    }
}
