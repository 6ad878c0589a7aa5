package dev.weft.vm.qemu;

import dev.weft.vm.Digests;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The host's qemu-system-x86_64: where it is, its version line, its digest and the firmware it loads. */
public record QemuInstallation(Path binary, String version, String binarySha256, List<Firmware> firmware) {

    public static final String BINARY = "qemu-system-x86_64";

    /** What to install, for the message printed where QEMU is missing. */
    public static final String INSTALL_HINT = "weft vm needs QEMU's " + BINARY + " (with its SeaBIOS firmware) and, to build"
            + " the guest, gcc, busybox-static, cpio and xz.\n"
            + "  Debian/Ubuntu: apt-get install qemu-system-x86 busybox-static cpio xz-utils gcc libc6-dev\n"
            + "  macOS/Windows: not supported (the guest is built from Debian packages); use a Debian machine or VM.\n";

    /** A firmware file QEMU loads for this machine (SeaBIOS, the PVH option ROM), by name and digest. */
    public record Firmware(String name, String sha256) {
    }

    /** The firmware files -machine pc with -kernel (PVH) loads, looked up in QEMU's data directory. */
    private static final List<String> FIRMWARE = List.of("bios-256k.bin", "pvh.bin");

    /** Finds the binary: an explicit path if given, else the first on PATH. Empty when there is none. */
    public static Optional<Path> find(String explicit) {
        if (explicit != null) {
            Path p = Path.of(explicit);
            return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, BINARY);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Describes the installation at {@code binary} (runs {@code --version} once, digests the files). */
    public static QemuInstallation describe(Path binary) throws IOException {
        Path real = binary.toRealPath();
        String version = versionLine(real);
        List<Firmware> fw = new ArrayList<>();
        Path dataDir = real.getParent().resolveSibling("share").resolve("qemu");
        for (String name : FIRMWARE) {
            Path f = dataDir.resolve(name);
            fw.add(new Firmware(name, Files.isRegularFile(f) ? Digests.sha256(f.toRealPath()) : "missing"));
        }
        return new QemuInstallation(real, version, Digests.sha256(real), List.copyOf(fw));
    }

    private static String versionLine(Path binary) throws IOException {
        Process p = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
        String text;
        try (InputStream in = p.getInputStream()) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(binary + " --version did not answer");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        String first = text.lines().findFirst().orElse("").strip();
        if (!first.startsWith("QEMU emulator version")) {
            throw new IOException(binary + " --version printed '" + first + "', not a QEMU version");
        }
        return first;
    }
}
