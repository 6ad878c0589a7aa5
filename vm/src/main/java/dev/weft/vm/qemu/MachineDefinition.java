package dev.weft.vm.qemu;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact machine every SimFerret run uses: one TCG vCPU with instruction counting (record/replay refuses
 * KVM and -smp 2), a fixed RTC start on the virtual clock, no devices but the serial console, a fixed icount
 * shift and {@code sleep=off} (with sleep=on guest sleeps follow host time and the log grows ~60x). These options are part
 * of a run's replay identity; the per-run parts (files, rr mode, QMP socket) are added by {@link #command}.
 */
public final class MachineDefinition {

    /** The fixed options, in command-line order. */
    public static final List<String> OPTIONS = List.of(
            "-nodefaults", "-machine", "pc", "-cpu", "qemu64", "-smp", "1", "-m", "256", "-accel", "tcg",
            "-display", "none", "-net", "none", "-no-reboot", "-no-shutdown",
            "-rtc", "base=2024-01-01T00:00:00,clock=vm");

    /**
     * The icount options before the rr mode and file. A fixed shift (2 ns of virtual time per instruction) makes
     * guest time a function of the instruction count alone: two recordings of one seed then run the guest
     * identically (same console, byte for byte), where {@code shift=auto} follows host speed so the kill lands on
     * a different request from run to run. {@code shift=auto} also had one recording in 22 whose replay stalled
     * (docs/simferret-evidence.md).
     */
    public static final String ICOUNT = "shift=1,sleep=off";

    /** The kernel command line before the plan's sf.* words: serial console, quiet kernel, panic reboots at once. */
    public static final String BASE_APPEND = "console=ttyS0 panic=-1 quiet";

    /** record or replay. */
    public enum Mode {
        RECORD("record"), REPLAY("replay");

        final String rr;

        Mode(String rr) {
            this.rr = rr;
        }
    }

    private MachineDefinition() {
    }

    /** The full kernel command line for a plan's words. */
    public static String append(String planArgs) {
        return BASE_APPEND + " " + planArgs;
    }

    /**
     * The QEMU command: paused at start ({@code -S}, the control plane attaches its watchdog before the guest
     * runs, then sends {@code cont}) and stopped instead of exiting at guest power-off ({@code -no-shutdown}, so
     * the final instruction count can be read).
     */
    public static List<String> command(Path qemu, Mode mode, Path rrFile, Path serialFile, Path qmpSocket,
            Path kernel, Path initramfs, String append) {
        List<String> cmd = new ArrayList<>();
        cmd.add(qemu.toString());
        cmd.addAll(OPTIONS);
        cmd.add("-S");
        cmd.add("-serial");
        cmd.add("file:" + serialFile);
        cmd.add("-icount");
        cmd.add(ICOUNT + ",rr=" + mode.rr + ",rrfile=" + rrFile);
        cmd.add("-qmp");
        cmd.add("unix:" + qmpSocket + ",server=on,wait=off");
        cmd.add("-kernel");
        cmd.add(kernel.toString());
        cmd.add("-initrd");
        cmd.add(initramfs.toString());
        cmd.add("-append");
        cmd.add(append);
        return cmd;
    }
}
