package dev.weft.fuzz;

import java.util.List;

/**
 * The sweep's queue (fuzz.md §5): the regression seeds (duplicates kept) followed by seed_start, seed_start+1,
 * … up to but excluding min(seed_start + seed_count, 2^64−1). Computed by index, never materialized,
 * since a range may hold up to 2^64−1 seeds. Sizes and indices are unsigned.
 */
public final class SeedQueue {

    private final long[] regression;
    private final long start;
    private final long rangeCount;

    public SeedQueue(List<Long> regressionSeeds, long seedStart, long seedCount) {
        regression = regressionSeeds.stream().mapToLong(Long::longValue).toArray();
        start = seedStart;
        long sum = seedStart + seedCount;
        // saturating end; seed 2^64-1 itself is never swept
        long end = Long.compareUnsigned(sum, seedStart) < 0 ? -1L : sum;
        rangeCount = end - seedStart;
    }

    /** Number of entries (unsigned; saturates at 2^64−1 in the absurd case of a full range plus regressions). */
    public long size() {
        long s = regression.length + rangeCount;
        return Long.compareUnsigned(s, rangeCount) < 0 ? -1L : s;
    }

    /** The seed at queue position index (unsigned, below size()). */
    public long seedAt(long index) {
        if (Long.compareUnsigned(index, regression.length) < 0) return regression[(int) index];
        return start + (index - regression.length);
    }
}
