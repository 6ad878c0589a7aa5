package dev.weft.net;

/** SplitMix64 (net-and-fault-model.md §2): {@code s += GAMMA; out = mix(s)}, all mod 2^64. */
public final class SplitMix64 {

    public static final long GAMMA = 0x9E3779B97F4A7C15L;

    private long state;

    public SplitMix64(long state) {
        this.state = state;
    }

    /** One step: advances the state and returns its mix. */
    public long next() {
        state += GAMMA;
        return mix(state);
    }

    /** The current state (after the last step). */
    public long state() {
        return state;
    }

    /** The output function applied to an (already incremented) state. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
