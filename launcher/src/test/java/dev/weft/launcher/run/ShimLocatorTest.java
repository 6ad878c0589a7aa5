package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShimLocatorTest {
    @TempDir
    Path dir;

    @Test
    void explicitPathWinsAndMustExist() throws Exception {
        Path lib = Files.writeString(dir.resolve("x.so"), "x");
        var locator = new ShimLocator(Map.of("WEFT_SHIM", "/elsewhere.so"), dir);
        assertEquals(lib, locator.locate(Optional.of(lib)));
        var e = assertThrows(ShimLocator.ShimNotFoundException.class,
                () -> locator.locate(Optional.of(dir.resolve("missing.so"))));
        assertEquals("--shim " + dir.resolve("missing.so") + ": no such file", e.getMessage());
    }

    @Test
    void environmentComesBeforeTheLauncherDirectory() throws Exception {
        Path fromEnv = Files.writeString(dir.resolve("env.so"), "e");
        Path jarDir = Files.createDirectories(dir.resolve("bin"));
        Files.writeString(jarDir.resolve(ShimLocator.LIBRARY), "j");
        assertEquals(fromEnv, new ShimLocator(Map.of("WEFT_SHIM", fromEnv.toString()), jarDir.resolve("weft.jar"))
                .locate(Optional.empty()));
        assertEquals(jarDir.resolve(ShimLocator.LIBRARY), new ShimLocator(Map.of(), jarDir.resolve("weft.jar"))
                .locate(Optional.empty()));
    }

    @Test
    void libDirectoryBesideTheJarIsSearched() throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Files.writeString(lib.resolve(ShimLocator.LIBRARY), "l");
        assertEquals(lib.resolve(ShimLocator.LIBRARY), new ShimLocator(Map.of(), bin.resolve("weft.jar"))
                .locate(Optional.empty()));
    }

    /** The build embeds the library in the launcher; it is extracted once into a cache named by its hash. */
    @Test
    void embeddedCopyIsExtractedToAHashedCacheDirectory() throws IOException, Exception {
        byte[] embedded;
        try (var in = ShimLocator.class.getResourceAsStream(ShimLocator.RESOURCE)) {
            assumeTrue(in != null, "skipped: no embedded shim (built on Linux only)");
            embedded = in.readAllBytes();
        }
        Path cache = dir.resolve("cache");
        Path nowhere = Files.createDirectories(dir.resolve("empty").resolve("bin"));
        var locator = new ShimLocator(Map.of("XDG_CACHE_HOME", cache.toString()), nowhere.resolve("weft.jar"));
        Path found = locator.locate(Optional.empty());
        assertTrue(found.startsWith(cache.resolve("weft")), found.toString());
        // native-<hash of the build's manifest>: the whole installed version; shim-<hash>: a jar without manifest
        assertTrue(found.getParent().getFileName().toString().matches("(native|shim)-[0-9a-f]{16}"), found.toString());
        assertArrayEquals(embedded, Files.readAllBytes(found));
        assertEquals(found, locator.locate(Optional.empty()), "second lookup reuses the extracted copy");
    }

    /** One directory per installed version: the shim's tools sit next to it, installed once and not writable. */
    @Test
    void installedVersionHoldsTheToolsBesideTheShim() throws Exception {
        try (var in = ShimLocator.class.getResourceAsStream("/dev/weft/launcher/run/native/native.sha256")) {
            assumeTrue(in != null, "skipped: no embedded manifest (built on Linux only)");
        }
        Path cache = dir.resolve("cache2");
        Path nowhere = Files.createDirectories(dir.resolve("empty2").resolve("bin"));
        var locator = new ShimLocator(Map.of("XDG_CACHE_HOME", cache.toString()), nowhere.resolve("weft.jar"));
        Path shim = locator.locate(Optional.empty());
        assertTrue(shim.getParent().getFileName().toString().matches("native-[0-9a-f]{16}"), shim.toString());
        assertEquals(Optional.of(shim.resolveSibling(ShimLocator.EXEC)), locator.locateTool(ShimLocator.EXEC, shim));
        assertEquals(Optional.of(shim.resolveSibling(ShimLocator.SUPERVISOR)), locator.locateSupervisor(shim));
        assertTrue(!Files.isWritable(shim.getParent()) || "root".equals(System.getProperty("user.name")),
                "the installed directory is read-only");
        try (var left = Files.list(cache.resolve("weft"))) {
            assertEquals(1, left.count(), "no temporary directory is left behind");
        }
    }
}
