package dev.weft.launcher.run;

import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Finds libweft_shim.so, in this order: {@code --shim}, {@code WEFT_SHIM}, next to the launcher
 * (its directory, {@code lib/}, {@code ../lib/}), the copy embedded in the launcher jar (extracted
 * once to a per-user cache directory named by its SHA-256), and finally a source checkout's build
 * output ({@code shim-native/target/}). The supervisor for static binaries, {@code weft_super}, is
 * found the same way, first next to the shim in use.
 */
public final class ShimLocator {
    public static final String LIBRARY = "libweft_shim.so";
    public static final String SUPERVISOR = "weft_super";
    private static final String RESOURCE_DIR = "/dev/weft/launcher/run/native/";
    /** Where the build places the library inside the launcher jar. */
    public static final String RESOURCE = RESOURCE_DIR + LIBRARY;

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
        return find(LIBRARY, tried, Files::isRegularFile).orElseThrow(() -> new ShimNotFoundException("cannot find " + LIBRARY
                + " (give --shim PATH or set WEFT_SHIM); looked at: "
                + String.join(", ", tried.stream().map(Path::toString).toList())));
    }

    /** The supervisor for static binaries: next to {@code shim}, then where the shim itself is looked for. */
    public Optional<Path> locateSupervisor(Path shim) {
        Path dir = shim == null ? null : shim.toAbsolutePath().getParent();
        Predicate<Path> runnable = c -> Files.isRegularFile(c) && Files.isExecutable(c);
        if (dir != null && runnable.test(dir.resolve(SUPERVISOR))) {
            return Optional.of(dir.resolve(SUPERVISOR));
        }
        return find(SUPERVISOR, new ArrayList<>(), runnable);
    }

    /** Next to the launcher, embedded in its jar, then a checkout's build output; every candidate goes to tried. */
    private Optional<Path> find(String name, List<Path> tried, Predicate<Path> usable) {
        if (launcherLocation != null) {
            Path dir = Files.isDirectory(launcherLocation) ? launcherLocation : launcherLocation.getParent();
            if (dir != null) {
                for (Path c : List.of(dir.resolve(name), dir.resolve("lib").resolve(name),
                        dir.resolveSibling("lib").resolve(name))) {
                    tried.add(c);
                    if (usable.test(c)) {
                        return Optional.of(c.toAbsolutePath());
                    }
                }
            }
        }
        Optional<Path> extracted = extractEmbedded(name);
        if (extracted.isPresent()) {
            return extracted;
        }
        tried.add(Path.of("(embedded " + RESOURCE_DIR + name + ")"));
        for (Path start = launcherLocation == null ? null : launcherLocation.toAbsolutePath(); start != null;
                start = start.getParent()) {
            Path c = start.resolve("shim-native").resolve("target").resolve(name);
            if (usable.test(c)) {
                return Optional.of(c);
            }
        }
        tried.add(Path.of("shim-native/target/" + name + " above the launcher"));
        return Optional.empty();
    }

    private static Path mustExist(Path p, String source) throws ShimNotFoundException {
        if (!Files.isRegularFile(p)) {
            throw new ShimNotFoundException(source + " " + p + ": no such file");
        }
        return p.toAbsolutePath();
    }

    /**
     * Copies an embedded file to $XDG_CACHE_HOME/weft (or ~/.cache/weft)/shim-&lt;sha256&gt;/, executable
     * (the supervisor is run, the library mapped).
     */
    private Optional<Path> extractEmbedded(String name) {
        byte[] bytes;
        try (InputStream in = ShimLocator.class.getResourceAsStream(RESOURCE_DIR + name)) {
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
        Path target = dir.resolve(name);
        try {
            if (!Files.isRegularFile(target)) {
                Files.createDirectories(dir);
                // temporary name, fsync, rename: concurrent runs and a crash never leave half a file under its name
                AtomicFile.write(target, bytes);
            }
            if (!Files.isExecutable(target)) { // also a copy a concurrent run renamed into place a moment ago
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
            return Optional.of(target);
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }
}
