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
    /** The isolation wrapper of every target (TargetIsolation). */
    public static final String EXEC = "weft_exec";
    /** The build's SHA-256 list of the embedded files ({@code sha256sum} format): names the installed version. */
    private static final String MANIFEST = "native.sha256";
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
        return locateTool(SUPERVISOR, shim);
    }

    /** A program shipped with the shim ({@link #SUPERVISOR}, {@link #EXEC}): next to {@code shim}, then as the shim. */
    public Optional<Path> locateTool(String name, Path shim) {
        Path dir = shim == null ? null : shim.toAbsolutePath().getParent();
        Predicate<Path> runnable = c -> Files.isRegularFile(c) && Files.isExecutable(c);
        if (dir != null && runnable.test(dir.resolve(name))) {
            return Optional.of(dir.resolve(name));
        }
        return find(name, new ArrayList<>(), runnable);
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
     * The embedded files of this launcher version, installed once into $XDG_CACHE_HOME/weft (or ~/.cache/weft)/
     * native-&lt;hash of the build's SHA-256 list&gt;/ and found there by every later run: a run reads a
     * 300-byte manifest instead of reading and hashing megabytes of library and supervisor (per node, before).
     * The directory is filled under a temporary name and renamed into place, so concurrent runs never see it half
     * written (the loser of the rename uses the winner's copy); a directory some other user could have written
     * is never trusted. Empty when the jar has no manifest or the cache is unusable (then per-file extraction).
     */
    private Optional<Path> installedVersion(String name) {
        String manifest;
        try (InputStream in = ShimLocator.class.getResourceAsStream(RESOURCE_DIR + MANIFEST)) {
            if (in == null) {
                return Optional.empty();
            }
            manifest = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return Optional.empty();
        }
        List<String> names = manifest.lines().map(l -> l.replaceFirst("^\\S+\\s+\\*?", "")).toList();
        if (!names.contains(name)) {
            return Optional.empty();
        }
        Path root = cacheRoot();
        Path dir = root.resolve("native-" + versionName(manifest));
        try {
            if (!Files.isDirectory(dir)) {
                install(root, dir, names);
            }
            return ownedByUs(dir) && Files.isExecutable(dir.resolve(name)) ? Optional.of(dir.resolve(name))
                    : Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    private Path cacheRoot() {
        String xdg = env.get("XDG_CACHE_HOME");
        Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("weft");
    }

    /** Writes every file of the manifest into a private temporary directory next to {@code dir}, then renames it. */
    private static void install(Path root, Path dir, List<String> names) throws IOException {
        Files.createDirectories(root);
        Path tmp = Files.createTempDirectory(root, dir.getFileName() + ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        try {
            for (String n : names) {
                try (InputStream in = ShimLocator.class.getResourceAsStream(RESOURCE_DIR + n)) {
                    if (in == null) {
                        throw new IOException("not embedded: " + n);
                    }
                    Path f = tmp.resolve(n);
                    try (var out = java.nio.channels.FileChannel.open(f, java.nio.file.StandardOpenOption.CREATE_NEW,
                            java.nio.file.StandardOpenOption.WRITE)) {
                        out.write(java.nio.ByteBuffer.wrap(in.readAllBytes()));
                        out.force(true);
                    }
                    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("r-xr-xr-x"));
                }
            }
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("r-xr-xr-x"));
            try {
                Files.move(tmp, dir, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                tmp = null;
            } catch (IOException raced) {
                // rename(2) onto the directory a concurrent run installed first fails (ENOTEMPTY, which Java maps
                // to no specific exception): use that copy; anything else is a real failure
                if (!Files.isDirectory(dir)) {
                    throw raced;
                }
            }
        } finally {
            if (tmp != null) {
                deleteTree(tmp);
            }
        }
    }

    private static void deleteTree(Path tmp) {
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
            try (var files = Files.list(tmp)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
            // a leftover temporary directory is harmless
        }
    }

    /** Ours and writable by nobody else: another user could otherwise have planted a library there. */
    private static boolean ownedByUs(Path dir) throws IOException {
        var attrs = Files.readAttributes(dir, java.nio.file.attribute.PosixFileAttributes.class,
                java.nio.file.LinkOption.NOFOLLOW_LINKS);
        var perms = attrs.permissions();
        Object uid = Files.getAttribute(dir, "unix:uid", java.nio.file.LinkOption.NOFOLLOW_LINKS);
        return attrs.isDirectory() && uid.equals(Files.getAttribute(Path.of("/proc/self/"), "unix:uid"))
                && !perms.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE)
                && !perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_WRITE);
    }

    /**
     * 64-bit FNV-1a of the manifest, in hex: the manifest already holds each file's SHA-256, so this names the
     * set of contents without loading the JDK's digest providers on every run.
     */
    static String versionName(String manifest) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < manifest.length(); i++) {
            h = (h ^ (manifest.charAt(i) & 0xff)) * 0x100000001b3L;
        }
        return HexFormat.of().withLowerCase().toHexDigits(h);
    }

    /**
     * Copies an embedded file to $XDG_CACHE_HOME/weft (or ~/.cache/weft)/shim-&lt;sha256&gt;/, executable
     * (the supervisor is run, the library mapped).
     */
    private Optional<Path> extractEmbedded(String name) {
        Optional<Path> installed = installedVersion(name);
        if (installed.isPresent()) {
            return installed;
        }
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
