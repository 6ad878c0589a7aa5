package dev.weft.vm;

import dev.weft.vm.qemu.QemuInstallation;
import java.io.PrintStream;

/**
 * What recording and replaying the guest both work with: the QEMU installation, the built guest image, the command's
 * options and where to report. {@link Recorder} and {@link Replayer} are the two runs.
 */
abstract class GuestRun {

    protected final QemuInstallation qemu;
    protected final GuestImage guest;
    protected final VmOptions options;
    protected final PrintStream out;
    protected final PrintStream err;

    GuestRun(QemuInstallation qemu, GuestImage guest, VmOptions options, PrintStream out, PrintStream err) {
        this.qemu = qemu;
        this.guest = guest;
        this.options = options;
        this.out = out;
        this.err = err;
    }

    /** Runs it; the exit code of {@code weft vm}. */
    abstract int run() throws java.io.IOException, VmCommand.VmFailure;
}
