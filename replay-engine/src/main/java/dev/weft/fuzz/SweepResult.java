package dev.weft.fuzz;

import java.util.List;
import java.util.SortedSet;

/**
 * What phase 1 found: tested/failed counts (unsigned), whether the time budget stopped it, and one finding
 * per distinct violation key, ordered by key display.
 */
public record SweepResult(long tested, long failed, boolean budgetHit, List<Finding> findings) {

    /**
     * A distinct violation: its key, the message of its first occurrence in queue order (the smallest
     * queue index, whatever the job count or shard), that queue index (unsigned), and every seed that raised it
     * (unsigned ascending).
     */
    public record Finding(ViolationKey key, String what, SortedSet<Long> seeds, long firstIndex) {

        public long smallestSeed() {
            return seeds.first();
        }
    }

    public SweepResult {
        findings = List.copyOf(findings);
    }
}
