package dev.weft.fuzz;

import java.util.List;

/**
 * Everything a fuzz run produced, in report order: the sweep counts and one entry per distinct violation
 * (ordered by key display) with its shrink statistics and the reproducer path (null if not written).
 */
public record FuzzOutcome(FuzzConfig config, SweepResult sweep, List<Found> found, long tookNanos) {

    /**
     * One distinct violation after phase 2. {@code reproPath} is the path as printed, or null when the file
     * could not be written; then {@code reproError} says why ({@code could not write <path>: <os error>}).
     */
    public record Found(SweepResult.Finding finding, ShrinkResult shrink, String reproPath, String reproError) {
    }

    public FuzzOutcome {
        found = List.copyOf(found);
    }

    /** Exit code of the run: 2 with violations, 0 without (fuzz.md §9). */
    public int exitCode() {
        return found.isEmpty() ? 0 : 2;
    }
}
