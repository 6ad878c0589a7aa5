package dev.weft.replay;

import dev.weft.net.FateSource;
import java.util.List;

/**
 * What to replay: {@code until} is an unsigned op index or null (replay everything); {@code invariants} are
 * canonical invariant names in registration order (empty = no checking); {@code fates} is where the fates come from:
 * null for the seeded fault model of the header, or the fault plan the recording was made with.
 */
public record ReplayOptions(Long until, List<String> invariants, FateSource fates) {

    public static final ReplayOptions PLAIN = new ReplayOptions(null, List.of());

    public ReplayOptions(Long until, List<String> invariants) {
        this(until, invariants, null);
    }

    /** The same options replaying against {@code fates} (a recording made with a fault plan). */
    public ReplayOptions withFates(FateSource fates) {
        return new ReplayOptions(until, invariants, fates);
    }

    public ReplayOptions {
        invariants = List.copyOf(invariants);
    }
}
