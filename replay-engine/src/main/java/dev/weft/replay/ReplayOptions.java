package dev.weft.replay;

import java.util.List;

/**
 * What to replay: {@code until} is an unsigned op index or null (replay everything); {@code invariants} are
 * canonical invariant names in registration order (empty = no checking).
 */
public record ReplayOptions(Long until, List<String> invariants) {

    public static final ReplayOptions PLAIN = new ReplayOptions(null, List.of());

    public ReplayOptions {
        invariants = List.copyOf(invariants);
    }
}
