package dev.weft.app.source;

import java.util.Locale;

/**
 * The named phases of opening a recording, for a determinate progress bar with a time estimate. Reading,
 * verifying the chain and indexing happen in one streaming pass, so they share one phase; the checks
 * (building the timeline, the protocol checkers, fifo/dup) follow.
 */
public final class LoadPhases {

    /** The phases in the order they run; each takes the share of the bar from where the one before ends. */
    public enum Phase {
        READING("reading · verifying · indexing", 0.92),
        CHECKS("checks", 1.0);

        private final String label;
        /** Where this phase ends on the whole load's bar (0..1). */
        private final double end;

        Phase(String label, double end) {
            this.label = label;
            this.end = end;
        }

        public String label() { return label; }

        /** Where this phase starts on the whole load's bar: where the one before it ends. */
        double start() {
            return ordinal() == 0 ? 0 : values()[ordinal() - 1].end;
        }
    }

    private LoadPhases() { }

    /** The whole load's fraction done when the phase is fraction done; unknown (negative) stays unknown. */
    public static double overall(Phase phase, double fraction) {
        if (fraction < 0) return -1;
        return phase.start() + (phase.end - phase.start()) * Math.min(1, fraction);
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
