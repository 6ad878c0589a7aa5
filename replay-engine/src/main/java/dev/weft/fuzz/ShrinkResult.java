package dev.weft.fuzz;

import java.util.List;

/** A shrunk workload and its statistics (fuzz.md §7): lengths before and after, executions used, budget state. */
public record ShrinkResult(List<Op> ops, int before, int after, int executions, boolean budgetExhausted) {

    public ShrinkResult {
        // a generated workload is immutable already; copying it would make every payload (1 GB for 100,000 sends
        // of 10 kB, once per distinct violation of a --no-shrink run)
        ops = WorkloadGenerator.isGenerated(ops) ? ops : List.copyOf(ops);
    }

    /** The statistics of an unshrunk workload ({@code --no-shrink}). */
    public static ShrinkResult unshrunk(List<Op> ops) {
        return new ShrinkResult(ops, ops.size(), ops.size(), 0, false);
    }
}
