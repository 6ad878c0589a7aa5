package dev.weft.vm;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * The built guest (vm/guest/build.sh's output): vmlinux, initramfs.cpio.gz and guest.properties (the kernel
 * package and version that went in). Digests are computed from the files themselves, not taken from the
 * properties, so a changed file is always noticed.
 */
public record GuestImage(Path dir, String kernelPackage, String kernelVersion) {

    public Path vmlinux() {
        return dir.resolve("vmlinux");
    }

    public Path initramfs() {
        return dir.resolve("initramfs.cpio.gz");
    }

    public static GuestImage open(Path dir) throws IOException {
        Path props = dir.resolve("guest.properties");
        if (!Files.isRegularFile(props) || !Files.isRegularFile(dir.resolve("vmlinux"))
                || !Files.isRegularFile(dir.resolve("initramfs.cpio.gz"))) {
            throw new IOException("no built guest in " + dir + " (expected vmlinux, initramfs.cpio.gz, guest.properties;"
                    + " build it with vm/guest/build.sh " + dir + ")");
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(props)) {
            p.load(in);
        }
        return new GuestImage(dir, p.getProperty("kernel.package", "?"), p.getProperty("kernel.version", "?"));
    }

    /**
     * Where the build put the guest: {@code -Dweft.vm.guest}, else {@code WEFT_VM_GUEST}, else
     * {@code vm/target/guest} in the source checkout this code runs from (found by walking up from its jar or
     * classes directory).
     */
    public static Optional<Path> defaultDir() {
        String explicit = System.getProperty("weft.vm.guest", System.getenv("WEFT_VM_GUEST"));
        if (explicit != null && !explicit.isEmpty()) {
            return Optional.of(Path.of(explicit));
        }
        try {
            Path here = Path.of(GuestImage.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                Path candidate = p.resolve("vm").resolve("target").resolve("guest");
                if (Files.isDirectory(candidate)) {
                    return Optional.of(candidate);
                }
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // no code source location: fall through
        }
        return Optional.empty();
    }
}
