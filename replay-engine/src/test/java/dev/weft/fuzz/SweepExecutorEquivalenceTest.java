package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.log.VAddr;
import dev.weft.net.NetSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fused sweep executor must raise exactly the keys and first messages that the generic executor with
 * the real invariant instances raises, on generated and on randomly mutated workloads.
 */
class SweepExecutorEquivalenceTest {

    private static final List<String> NETS = List.of("latency=uniform:0-8000,loss=0.02", "latency=exp:3000,loss=0.1",
            "latency=fixed:100", "latency=uniform:0-500,bw=1000", "latency=uniform:10-90000,partition=0|1+2",
            "loss=0.5");
    private static final List<List<String>> INVARIANTS = List.of(List.of("fifo", "dup"), List.of("dup"),
            List.of("per-channel-fifo"), List.of("dup", "fifo", "fifo"), List.of("no-duplicate-delivery", "per-channel-fifo"));

    /** Draws one case's workload from the case's random stream. */
    private interface Workload {
        List<Op> draw(SplittableRandom rnd) throws Exception;
    }

    /**
     * 300 random cases, each a net and an invariant list picked at random, the workload drawn, and a random seed: the
     * sweep executor finds what the generic executor finds.
     */
    private static void randomCasesAgree(long streamSeed, Workload workload) throws Exception {
        SplittableRandom rnd = new SplittableRandom(streamSeed);
        for (int c = 0; c < 300; c++) {
            NetSpec net = NetSpec.parse(NETS.get(rnd.nextInt(NETS.size())));
            List<String> inv = INVARIANTS.get(rnd.nextInt(INVARIANTS.size()));
            List<Op> ops = workload.draw(rnd);
            long seed = rnd.nextLong();
            assertEquals(generic(seed, net, ops, inv), new SweepExecutor(net, ops, inv).firstMessages(seed),
                    "case " + c);
        }
    }

    private static Map<ViolationKey, String> generic(long seed, NetSpec net, List<Op> ops, List<String> inv) {
        return Sweep.firstMessages(Executor.execute(seed, net, ops, inv).violations());
    }

    @Test
    void generatedWorkloadsAgree() throws Exception {
        randomCasesAgree(20261130, rnd -> WorkloadGenerator.generate(
                new WorkloadSpec(2 + rnd.nextInt(4), rnd.nextInt(80), rnd.nextInt(6), rnd.nextLong())));
    }

    @Test
    void scratchReusedAcrossSeedsAgrees() throws Exception {
        NetSpec net = NetSpec.parse("latency=uniform:0-8000,loss=0.02");
        List<String> inv = List.of("fifo", "dup");
        List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(3, 200, 4, 9));
        SweepExecutor executor = new SweepExecutor(net, ops, inv);
        SweepExecutor.Scratch scratch = executor.newScratch();
        for (long seed = 0; seed < 60; seed++) {
            assertEquals(generic(seed, net, ops, inv), executor.firstMessages(seed, scratch), "seed " + seed);
        }
    }

    @Test
    void mutatedWorkloadsWithDisconnectsRebindsAndForeignAddressesAgree() throws Exception {
        randomCasesAgree(7, rnd -> {
            List<Op> ops = new ArrayList<>(WorkloadGenerator.generate(new WorkloadSpec(3, 40, 2, rnd.nextLong())));
            for (int m = 0; m < 12; m++) {
                int at = rnd.nextInt(ops.size() + 1);
                long conn = rnd.nextInt(5);
                VAddr addr = new VAddr(0x7F000001L + rnd.nextInt(5), 100 + rnd.nextInt(2));
                Op extra = switch (rnd.nextInt(5)) {
                    case 0 -> new Op.Disconnect(conn);
                    case 1 -> new Op.Connect(conn);
                    case 2 -> new Op.Bind(conn, addr);
                    case 3 -> new Op.Send(conn, addr, WorkloadGenerator.addressOf(rnd.nextInt(3)), new byte[] {1});
                    default -> new Op.Recv(conn, rnd.nextBoolean());
                };
                ops.add(at, extra);
            }
            return ops;
        });
    }
}
