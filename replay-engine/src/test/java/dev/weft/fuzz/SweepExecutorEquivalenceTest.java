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

    private static NetSpec randomNet(SplittableRandom rnd) throws Exception {
        return NetSpec.parse(NETS.get(rnd.nextInt(NETS.size())));
    }

    private static List<String> randomInvariants(SplittableRandom rnd) {
        return INVARIANTS.get(rnd.nextInt(INVARIANTS.size()));
    }

    private static Map<ViolationKey, String> generic(long seed, NetSpec net, List<Op> ops, List<String> inv) {
        return Sweep.firstMessages(Executor.execute(seed, net, ops, inv).violations());
    }

    @Test
    void generatedWorkloadsAgree() throws Exception {
        SplittableRandom rnd = new SplittableRandom(20261130);
        for (int c = 0; c < 300; c++) {
            NetSpec net = randomNet(rnd);
            List<String> inv = randomInvariants(rnd);
            List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(2 + rnd.nextInt(4), rnd.nextInt(80), rnd.nextInt(6),
                    rnd.nextLong()));
            long seed = rnd.nextLong();
            assertEquals(generic(seed, net, ops, inv), new SweepExecutor(net, ops, inv).firstMessages(seed),
                    "case " + c);
        }
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
        SplittableRandom rnd = new SplittableRandom(7);
        for (int c = 0; c < 300; c++) {
            NetSpec net = randomNet(rnd);
            List<String> inv = randomInvariants(rnd);
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
            long seed = rnd.nextLong();
            assertEquals(generic(seed, net, ops, inv), new SweepExecutor(net, ops, inv).firstMessages(seed),
                    "case " + c);
        }
    }
}
