package dev.weft.fuzz;

import dev.weft.net.NetSpec;

/** Test access for the mutation sweep: uses an accepted config the way a run would, on a small scale. */
public final class FuzzConfigProbe {

    private static final long HEAP = 2L << 30;

    private FuzzConfigProbe() {
    }

    /** The heap plan (a refusal is fine), then one sweep execution when the workload is small. */
    public static void planAndTryOneSeed(FuzzConfig config) throws Exception {
        try {
            MemoryBudget.plan(config, "probe.json", HEAP);
        } catch (FuzzConfigException refused) {
            return;
        }
        if (MemoryBudget.maxOps(config.workload()) > 2_000 || Long.compareUnsigned(config.workload().payloadLen(), 4096) > 0) return;
        SweepExecutor executor = new SweepExecutor(NetSpec.parse(config.net()), WorkloadGenerator.generate(config.workload()),
                config.invariants());
        executor.firstMessages(config.seedStart());
    }
}
