package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PrivateDirectory}: a new 0700 directory that this call created, never one that was there before (a
 * directory or a symbolic link someone placed under the next name is passed over), and gone again when building in
 * it fails.
 */
class PrivateDirectoryTest {
    @TempDir
    Path parent;

    @Test
    void eachCallMakesAFreshOwnerOnlyDirectory() throws IOException {
        Path a = PrivateDirectory.create(parent, "weft-test-", dir -> dir);
        Path b = PrivateDirectory.create(parent, "weft-test-", dir -> dir);
        assertNotEquals(a, b);
        for (Path d : new Path[] {a, b}) {
            assertTrue(Files.isDirectory(d, LinkOption.NOFOLLOW_LINKS));
            assertEquals(parent, d.getParent());
            assertTrue(d.getFileName().toString().startsWith("weft-test-" + ProcessHandle.current().pid() + "-"));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(d)));
        }
    }

    @Test
    void namesAlreadyTakenAreSkipped() throws IOException {
        // the names the next calls would try, each already taken: by a directory, a link to elsewhere, a file
        Path elsewhere = Files.createDirectory(parent.resolve("elsewhere"));
        Path probe = PrivateDirectory.create(parent, "weft-taken-", dir -> dir);
        String stem = probe.getFileName().toString().replaceFirst("[0-9a-z]+$", "");
        long next = Long.parseLong(probe.getFileName().toString().substring(stem.length()), 36) + 1;
        Files.createDirectory(parent.resolve(stem + Long.toString(next, 36)));
        Files.createSymbolicLink(parent.resolve(stem + Long.toString(next + 1, 36)), elsewhere);
        Files.createFile(parent.resolve(stem + Long.toString(next + 2, 36)));
        Path made = PrivateDirectory.create(parent, "weft-taken-", dir -> dir);
        assertEquals(stem + Long.toString(next + 3, 36), made.getFileName().toString());
        try (Stream<Path> inside = Files.list(elsewhere)) {
            assertEquals(0, inside.count(), "nothing was made through the link");
        }
    }

    @Test
    void aFailedBuildLeavesNoDirectory() throws IOException {
        Path[] seen = new Path[1];
        try {
            PrivateDirectory.create(parent, "weft-fail-", dir -> {
                seen[0] = dir;
                throw new IOException("cannot bind");
            });
        } catch (IOException expected) {
            assertEquals("cannot bind", expected.getMessage());
        }
        assertFalse(Files.exists(seen[0]));
    }
}
