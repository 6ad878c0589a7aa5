package dev.weft.vm.qemu;

/**
 * Decides when a running machine has failed to make progress. A divergent QEMU replay does not exit or print
 * anything: it spins at 100% CPU with the instruction count frozen. So: the count not advancing for
 * {@code stallMillis} is a stall, and the whole run exceeding {@code boundMillis} is over time. The caller feeds
 * it host monotonic time; only the verdict (never a measured time) reaches a run's results.
 */
public final class StallWatchdog {

    /** What the watchdog says after an observation. */
    public enum Verdict { RUNNING, STALLED, OVER_TIME }

    private final long stallMillis;
    private final long boundMillis;
    private final long startMillis;
    private long lastIcount = -1;
    private boolean observed;
    private long lastAdvanceMillis;

    public StallWatchdog(long stallMillis, long boundMillis, long startMillis) {
        if (stallMillis <= 0 || boundMillis <= 0) {
            throw new IllegalArgumentException("watchdog bounds must be positive");
        }
        this.stallMillis = stallMillis;
        this.boundMillis = boundMillis;
        this.startMillis = startMillis;
        this.lastAdvanceMillis = startMillis;
    }

    /** One observation: the host's monotonic time and the machine's instruction count at that time. */
    public Verdict observe(long nowMillis, long icount) {
        if (!observed || icount != lastIcount) {
            observed = true;
            lastIcount = icount;
            lastAdvanceMillis = nowMillis;
        }
        if (nowMillis - startMillis > boundMillis) {
            return Verdict.OVER_TIME;
        }
        if (nowMillis - lastAdvanceMillis > stallMillis) {
            return Verdict.STALLED;
        }
        return Verdict.RUNNING;
    }

    /** The instruction count at the last observation (-1 before the first). */
    public long lastIcount() {
        return lastIcount;
    }

    public long stallMillis() {
        return stallMillis;
    }

    public long boundMillis() {
        return boundMillis;
    }
}
