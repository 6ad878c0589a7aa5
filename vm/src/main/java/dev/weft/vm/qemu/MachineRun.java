package dev.weft.vm.qemu;

/**
 * How one QEMU run ended. {@code finalIcount} is the instruction count at the end (at power-off for a normal
 * end, the last observed count otherwise); {@code diagnostics} is QEMU's own stderr and the control plane's note,
 * kept out of every recorded result (it may hold host paths and timings).
 */
public record MachineRun(Ending ending, long finalIcount, String detail, String diagnostics) {

    /** The ways a run ends; only {@link #POWERED_OFF} is normal. */
    public enum Ending {
        POWERED_OFF("powered-off"),
        STALLED("stalled"),
        OVER_TIME("over-time"),
        QEMU_EXITED("qemu-exited"),
        CONTROL_FAILED("control-failed");

        public final String word;

        Ending(String word) {
            this.word = word;
        }
    }

    public boolean normal() {
        return ending == Ending.POWERED_OFF;
    }
}
