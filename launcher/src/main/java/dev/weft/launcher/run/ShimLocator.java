package dev.weft.launcher.run;

import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds libweft_shim.so, in this order: {@code --shim}, {@code WEFT_SHIM}, next to the launcher
 * (its directory, {@code lib/}, {@code ../lib/}), the copy embedded in the launcher jar (extracted
 * once to a per-user cache directory named by its SHA-256), and finally a source checkout's build
 * output ({@code shim-native/target/}).
 */
public final class ShimLocator {
    public static final String LIBRARY = "libweft_shim.so";
    /** Where the build places the library inside the launcher jar. */
    public static final String RESOURCE = "/dev/weft/launcher/run/native/" + LIBRARY;

    private final Map<String, String> env;
    private final Path launcherLocation;

    public ShimLocator(Map<String, String> env, Path launcherLocation) {
        this.env = env;
        this.launcherLocation = launcherLocation;
    }

    /** The location of this class's jar or classes directory, if it can be known. */
    public static Optional<Path> ownLocation() {
        try {
            var src = ShimLocator.class.getProtectionDomain().getCodeSource();
            return src == null ? Optional.empty() : Optional.of(Path.of(src.getLocation().toURI()));
        } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Thrown when no usable shim exists; the message lists where it looked. */
    public static final class ShimNotFoundException extends Exception {
        private static final long serialVersionUID = 1L;

        ShimNotFoundException(String message) {
            super(message);
        }
    }

    public Path locate(Optional<Path> explicit) throws ShimNotFoundException {
        if (explicit.isPresent()) {
            return mustExist(explicit.get(), "--shim");
        }
        String fromEnv = env.get("WEFT_SHIM");
        if (fromEnv != null && !fromEnv.isEmpty()) {
            return mustExist(Path.of(fromEnv), "WEFT_SHIM");
        }
        List<Path> tried = new ArrayList<>();
        if (launcherLocation != null) {
            Path dir = Files.isDirectory(launcherLocation) ? launcherLocation : launcherLocation.getParent();
            if (dir != null) {
                for (Path c : List.of(dir.resolve(LIBRARY), dir.resolve("lib").resolve(LIBRARY),
                        dir.resolveSibling("lib").resolve(LIBRARY))) {
                    tried.add(c);
                    if (Files.isRegularFile(c)) {
                        return c.toAbsolutePath();
                    }
                }
            }
        }
        Optional<Path> extracted = extractEmbedded();
        if (extracted.isPresent()) {
            return extracted.get();
        }
        tried.add(Path.of("(embedded " + RESOURCE + ")"));
        for (Path start = launcherLocation == null ? null : launcherLocation.toAbsolutePath(); start != null;
                start = start.getParent()) {
            Path c = start.resolve("shim-native").resolve("target").resolve(LIBRARY);
            if (Files.isRegularFile(c)) {
                return c;
            }
        }
        tried.add(Path.of("shim-native/target/" + LIBRARY + " above the launcher"));
        throw new ShimNotFoundException("cannot find " + LIBRARY + " (give --shim PATH or set WEFT_SHIM); looked at: "
                + String.join(", ", tried.stream().map(Path::toString).toList()));
    }

    private static Path mustExist(Path p, String source) throws ShimNotFoundException {
        if (!Files.isRegularFile(p)) {
            throw new ShimNotFoundException(source + " " + p + ": no such file");
        }
        return p.toAbsolutePath();
    }

    /** Copies the embedded library to $XDG_CACHE_HOME/weft (or ~/.cache/weft)/shim-&lt;sha256&gt;/. */
    private Optional<Path> extractEmbedded() {
        byte[] bytes;
        try (InputStream in = ShimLocator.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return Optional.empty();
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            return Optional.empty();
        }
        String hash;
        try {
            hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes)).substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            return Optional.empty();
        }
        String xdg = env.get("XDG_CACHE_HOME");
        Path cacheRoot = xdg != null && !xdg.isEmpty() ? Path.of(xdg)
                : Path.of(System.getProperty("user.home"), ".cache");
        Path dir = cacheRoot.resolve("weft").resolve("shim-" + hash);
        Path target = dir.resolve(LIBRARY);
        if (Files.isRegularFile(target)) {
            return Optional.of(target);
        }
        try {
            Files.createDirectories(dir);
            // temporary name, fsync, rename: concurrent runs and a crash never leave half a library under its name
            AtomicFile.write(target, bytes);
            return Optional.of(target);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
