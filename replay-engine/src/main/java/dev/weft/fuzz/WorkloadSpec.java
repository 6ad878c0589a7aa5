package dev.weft.fuzz;

/**
 * The {@code workload} member of a fuzz config (fuzz.md §2): nodes and sends are u32, payloadLen is an
 * unsigned size, workloadSeed a u64 (all held in longs, unsigned).
 */
public record WorkloadSpec(long nodes, long sends, long payloadLen, long workloadSeed) {

    public static final WorkloadSpec DEFAULT = new WorkloadSpec(2, 24, 4, 0);
}
