package dev.weft.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shim-native build (shim-native/target) for tests that run real programs under the shim. Off Linux, or where
 * the shim and its examples were not built, {@link #example} skips the calling test with a message saying so.
 */
public final class NativeBuild {

    private NativeBuild() {
    }

    /** The repository's root: the nearest folder above the working directory holding shim-native/Makefile. */
    public static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("shim-native").resolve("Makefile"))) return p;
        }
        throw new IllegalStateException("no repository root (shim-native/Makefile) above " + Path.of("").toAbsolutePath());
    }

    /** The built shim library. */
    public static Path shim() {
        return root().resolve("shim-native").resolve("target").resolve("libweft_shim.so");
    }

    /** A built example program (examples/NAME.c); skips the calling test off Linux or when it or the shim is missing. */
    public static Path example(String name) {
        assumeTrue(System.getProperty("os.name").equals("Linux"), "skipped: runs need Linux");
        Path p = root().resolve("shim-native").resolve("target").resolve("examples").resolve(name);
        assumeTrue(Files.isExecutable(p) && Files.isRegularFile(shim()), "skipped: shim-native was not built");
        return p;
    }
}
