package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.vm.VmCommandTest.Result;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A QEMU that dies instead of running fails the record with its own words, quickly, and writes no run directory. */
class UnexpectedQemuExitTest {

    @TempDir
    Path tmp;

    @Test
    void aQemuThatExitsIsReportedWithItsDiagnostics() throws Exception {
        assumeTrue(File.separatorChar == '/', "needs a POSIX shell");
        Path fake = tmp.resolve("qemu-system-x86_64");
        Files.writeString(fake, "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'QEMU emulator version 0.0-fake'; exit 0; }\n"
                + "echo 'fake qemu: cannot start this machine' >&2\nexit 1\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path guest = Files.createDirectories(tmp.resolve("guest"));
        Files.writeString(guest.resolve("vmlinux"), "not a kernel");
        Files.writeString(guest.resolve("initramfs.cpio.gz"), "not an initramfs");
        Files.writeString(guest.resolve("guest.properties"), "kernel.package=fake\nkernel.version=0\n");
        Path out = tmp.resolve("run");

        Result r = VmCommandTest.run("record", "--seed", "1", "--qemu", fake.toString(), "--guest", guest.toString(), "--out",
                out.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("FAIL machine-ended-normally: ending: qemu-exited"), r.out());
        assertTrue(r.out().contains("FAIL required-events-present: missing: agent/boot"), r.out());
        assertTrue(r.err().contains("QEMU exited by itself with status 1 before the run started"), r.err());
        assertTrue(r.err().contains("QEMU said: fake qemu: cannot start this machine"), r.err());
        // The failed run is still written, so it can be inspected.
        assertTrue(Files.isRegularFile(out.resolve(RunFiles.MANIFEST)));
    }
}
