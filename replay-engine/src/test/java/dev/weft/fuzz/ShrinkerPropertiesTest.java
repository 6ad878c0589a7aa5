package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NetSpec;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Properties of every shrink over seeded random workloads and nets: the result is a subsequence of the
 * input (never reordered), sends keep their channel and a prefix of their payload, the same seed and net
 * still raise the same invariant on the same channel, and the statistics describe the result.
 */
class ShrinkerPropertiesTest {

    private static final List<String> NETS = List.of("latency=uniform:0-8000,loss=0.02", "latency=exp:2000,loss=0.1",
            "latency=uniform:100-900", "latency=uniform:0-3000,bw=2000000");

    @Test
    void shrinksAreOrderedSubsequencesThatStillFailTheSameWay() throws Exception {
        SplittableRandom rnd = new SplittableRandom(11);
        int shrinks = 0;
        for (int c = 0; c < 40; c++) {
            NetSpec net = NetSpec.parse(NETS.get(rnd.nextInt(NETS.size())));
            List<String> inv = rnd.nextBoolean() ? List.of("fifo", "dup") : List.of("dup", "per-channel-fifo");
            List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(2 + rnd.nextInt(3), 10 + rnd.nextInt(60),
                    1 + rnd.nextInt(6), rnd.nextLong()));
            long seed = rnd.nextLong();
            for (ViolationKey key : Sweep.firstMessages(Executor.execute(seed, net, ops, inv).violations()).keySet()) {
                ShrinkResult r = new Shrinker(seed, net, inv, key, false).shrink(ops);
                assertSubsequence(ops, r.ops());
                assertTrue(Executor.firstIndexOf(seed, net, r.ops(), inv, key) >= 0, "still raises " + key);
                assertEquals(ops.size(), r.before());
                assertEquals(r.ops().size(), r.after());
                assertTrue(r.after() <= r.before());
                assertEquals(r.executions() >= Shrinker.BUDGET, r.budgetExhausted());
                shrinks++;
            }
        }
        assertTrue(shrinks > 30, "enough failing cases: " + shrinks);
    }

    @Test
    void aWorkloadWithoutTheKeyIsReturnedUnchangedAfterOneExecution() throws Exception {
        NetSpec net = NetSpec.parse("latency=fixed:100");
        List<Op> ops = WorkloadGenerator.generate(WorkloadSpec.DEFAULT);
        ViolationKey key = new ViolationKey("per-channel-fifo", "127.0.0.1:100 \u2192 127.0.0.2:100");
        ShrinkResult r = new Shrinker(0, net, List.of("fifo"), key, false).shrink(ops);
        assertEquals(new ShrinkResult(ops, 87, 87, 1, false), r);
    }

    /** Each result op matches a later input op of the same kind and conn; sends differ at most by a payload cut. */
    static void assertSubsequence(List<Op> input, List<Op> result) {
        int i = 0;
        for (Op op : result) {
            while (i < input.size() && !sameModuloPayloadCut(input.get(i), op)) i++;
            assertTrue(i < input.size(), "result op " + op + " is not in order in the input");
            i++;
        }
    }

    private static boolean sameModuloPayloadCut(Op original, Op shrunk) {
        if (original instanceof Op.Send a && shrunk instanceof Op.Send b) {
            if (a.conn() != b.conn() || !a.src().equals(b.src()) || !a.dst().equals(b.dst())) return false;
            if (b.payload().length != a.payload().length && b.payload().length != 1) return false;
            byte[] prefix = Arrays.copyOf(a.payload(), b.payload().length);
            return Arrays.equals(prefix, b.payload());
        }
        return original.equals(shrunk);
    }
}
