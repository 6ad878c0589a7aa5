package dev.weft.app.source;

import java.util.Locale;

/**
 * The named phases of opening a recording, for a determinate progress bar with a time estimate. Reading,
 * verifying the chain and indexing happen in one streaming pass, so they share one phase; the checks
 * (building the timeline, the protocol checkers, fifo/dup) follow.
 */
public final class LoadPhases {

    public enum Phase {
        READING("reading · verifying · indexing", 0.0, 0.92),
        CHECKS("checks", 0.92, 1.0);

        final String label;
        final double from;
        final double to;

        Phase(String label, double from, double to) {
            this.label = label;
            this.from = from;
            this.to = to;
        }

        public String label() { return label; }
    }

    private LoadPhases() { }

    /** The whole load's fraction done when the phase is fraction done; unknown (negative) stays unknown. */
    public static double overall(Phase phase, double fraction) {
        if (fraction < 0) return -1;
        return phase.from + (phase.to - phase.from) * Math.min(1, fraction);
    }

    /**
     * "reading · verifying · indexing — 412,000 records · 41% · about 3 s left": the phase, how far, and an
     * estimate from the time spent so far (none until 5% is done, when it would be noise).
     */
    public static String describe(Phase phase, double fraction, long records, long elapsedNanos) {
        StringBuilder sb = new StringBuilder(phase.label);
        sb.append(" — ").append(String.format(Locale.ROOT, "%,d", records)).append(" records");
        double all = overall(phase, fraction);
        if (all >= 0) {
            sb.append(" · ").append((int) Math.floor(all * 100)).append('%');
            if (all >= 0.05 && all < 1) {
                double left = elapsedNanos / 1e9 * (1 - all) / all;
                sb.append(" · about ").append(left < 1 ? "1" : String.valueOf(Math.round(left))).append(" s left");
            }
        }
        return sb.toString();
    }
}
