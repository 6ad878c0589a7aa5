package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.vm.qemu.QemuInstallation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test gate: skip (with a message) without QEMU; with QEMU, the build must have produced the guest. */
final class QemuAvailable {

    private QemuAvailable() {
    }

    static Path guestOrSkip() {
        assumeTrue(QemuInstallation.find(null).isPresent(),
                "SimFerret end-to-end tests skipped: " + QemuInstallation.BINARY + " not found on PATH. "
                        + QemuInstallation.INSTALL_HINT);
        Path guest = Path.of(System.getProperty("weft.vm.guest", "target/guest"));
        try {
            GuestImage.open(guest);
        } catch (IOException e) {
            Path log = guest.resolveSibling("guest-build.log");
            String tail = "";
            try {
                tail = Files.exists(log) ? "\n" + Files.readString(log) : "";
            } catch (IOException ignored) {
                // no log to show
            }
            fail("QEMU is installed but the guest was not built: " + e.getMessage() + tail);
        }
        return guest;
    }
}
