package dev.weft.vm;

/**
 * A run of the guest under QEMU: {@link Recorder} ({@code weft vm record}) or {@link Replayer} ({@code weft vm
 * replay}). Both are records of the same parts: the QEMU installation, the built guest image, the command's options
 * and where to report.
 */
interface GuestRun {

    /** Runs it; the exit code of {@code weft vm}. */
    int run() throws java.io.IOException, VmCommand.VmFailure;
}
