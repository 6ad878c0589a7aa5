package dev.weft.vm;

import java.util.List;

/**
 * What a SimFerret run does, before the seed picks the details: how many operations the workload client sends,
 * its pace, the window in which the server is killed (ms after the client starts) and the window for the restart
 * delay (ms after the server died). The seed draws one value from each window (see {@link ChoicePlan}).
 */
public record Scenario(int requests, int paceMs, int killMinMs, int killMaxMs, int restartMinMs, int restartMaxMs) {

    /** 40 operations 2 ms apart (~85 ms of guest time); the kill lands in the first half of the workload. */
    public static final Scenario DEFAULT = new Scenario(40, 2, 15, 45, 5, 20);

    /** The keys of a scenario file, in the order {@link #toJsonFields()} writes them. */
    public static final List<String> KEYS =
            List.of("requests", "pace_ms", "kill_min_ms", "kill_max_ms", "restart_min_ms", "restart_max_ms");

    public Scenario {
        if (requests < 1 || requests > 2000) {
            throw new IllegalArgumentException("requests must be 1..2000, got " + requests);
        }
        if (paceMs < 0 || paceMs > 1000) {
            throw new IllegalArgumentException("pace_ms must be 0..1000, got " + paceMs);
        }
        if (killMinMs < 0 || killMaxMs < killMinMs || killMaxMs > 60_000) {
            throw new IllegalArgumentException(
                    "kill window must satisfy 0 <= kill_min_ms <= kill_max_ms <= 60000, got " + killMinMs + ".." + killMaxMs);
        }
        if (restartMinMs < 0 || restartMaxMs < restartMinMs || restartMaxMs > 60_000) {
            throw new IllegalArgumentException("restart window must satisfy 0 <= restart_min_ms <= restart_max_ms <= 60000, got "
                    + restartMinMs + ".." + restartMaxMs);
        }
    }

    /** The values in {@link #KEYS} order. */
    public int[] values() {
        return new int[] {requests, paceMs, killMinMs, killMaxMs, restartMinMs, restartMaxMs};
    }

    /** Builds a scenario from values in {@link #KEYS} order. */
    public static Scenario of(int[] v) {
        return new Scenario(v[0], v[1], v[2], v[3], v[4], v[5]);
    }
}
