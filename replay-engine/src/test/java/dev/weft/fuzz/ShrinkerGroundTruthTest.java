package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.check.PerChannelFifo;
import dev.weft.log.VAddr;
import dev.weft.net.NetSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * Shrinker ground truth: a known exact minimum M (a FIFO violation on channel A→B: the receiver's connect
 * and bind, 2-3 sends, 2-3 polls, optionally the sender's connect) is buried among hundreds of noise ops
 * that cannot influence channel A→B or the receiver's queue. M is checked by brute force to be the only
 * failing subset of itself; since noise is independent, the only 1-minimal failing subsequence is M, and
 * the shrinker must return exactly M (payloads cut to one byte).
 */
class ShrinkerGroundTruthTest {

    private static final NetSpec NET = parse("latency=uniform:0-8000");
    private static final List<String> INVARIANTS = List.of("fifo", "dup");
    private static final VAddr A = WorkloadGenerator.addressOf(0);
    private static final VAddr B = WorkloadGenerator.addressOf(1);
    private static final ViolationKey KEY = new ViolationKey(PerChannelFifo.NAME, A.text() + " \u2192 " + B.text());

    private static NetSpec parse(String s) {
        try {
            return NetSpec.parse(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean fails(long seed, List<Op> ops) {
        return Executor.firstIndexOf(seed, NET, ops, INVARIANTS, KEY) >= 0;
    }

    /** A candidate minimum: conn 0 sends on A→B, conn 1 (bound to B) polls. */
    private static List<Op> candidate(SplittableRandom rnd, boolean senderConnect, int sends, int polls) {
        List<Op> m = new ArrayList<>();
        if (senderConnect) m.add(new Op.Connect(0));
        m.add(new Op.Connect(1));
        m.add(new Op.Bind(1, B));
        for (int i = 0; i < sends; i++) m.add(new Op.Send(0, A, B, new byte[] {(byte) (0x10 + i), 7, 7, 7}));
        for (int i = 0; i < polls; i++) m.add(new Op.Recv(1, false));
        return m;
    }

    /** True if ops fails and no subsequence dropping at least one removable op fails. */
    private static boolean isOnlyFailingSubset(long seed, List<Op> ops) {
        if (!fails(seed, ops)) return false;
        List<Integer> removable = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) if (!(ops.get(i) instanceof Op.Connect)) removable.add(i);
        for (int mask = 1; mask < (1 << removable.size()); mask++) {
            List<Op> sub = new ArrayList<>();
            for (int i = 0; i < ops.size(); i++) {
                int r = removable.indexOf(i);
                if (r < 0 || (mask & (1 << r)) == 0) sub.add(ops.get(i));
            }
            if (fails(seed, sub)) return false;
        }
        return true;
    }

    /** Noise on conns 2..5 (addresses 127.0.0.3..6) and sends from conn 0 to them: never touches A→B or conn 1. */
    private static Op noise(SplittableRandom rnd) {
        int conn = 2 + rnd.nextInt(4);
        VAddr own = WorkloadGenerator.addressOf(conn);
        VAddr other = WorkloadGenerator.addressOf(2 + rnd.nextInt(4));
        return switch (rnd.nextInt(9)) {
            case 0 -> new Op.Connect(conn);
            case 1 -> new Op.Bind(conn, own);
            case 2 -> new Op.Hello(rnd.nextInt(6), rnd.nextInt(6));
            case 3 -> new Op.Send(0, A, other, new byte[] {1, 2, 3, 4});
            case 4 -> new Op.Disconnect(conn);
            case 5, 6 -> new Op.Send(conn, own, other.equals(own) ? A : other, new byte[] {5, 6, 7, 8});
            default -> new Op.Recv(conn, rnd.nextBoolean());
        };
    }

    /** M's ops spread in order through noise, with more noise after the violation. */
    private static List<Op> bury(SplittableRandom rnd, List<Op> m, int noiseOps) {
        List<Op> out = new ArrayList<>();
        for (int i = 0; i < noiseOps; i++) out.add(noise(rnd));
        // Connects of the noise conns up front so that the noise does something.
        for (int c = 2; c < 6; c++) out.add(rnd.nextInt(out.size() + 1), new Op.Connect(c));
        int at = 0;
        for (Op op : m) {
            at = at + rnd.nextInt(Math.max(1, (out.size() - at) / 3));
            out.add(at, op);
            at++;
        }
        return out;
    }

    private static List<Op> onePayloadByte(List<Op> m) {
        List<Op> out = new ArrayList<>();
        for (Op op : m) out.add(op instanceof Op.Send s ? s.withPayloadPrefix(1) : op);
        return out;
    }

    @Test
    void buriedMinimaAreRecoveredExactly() {
        SplittableRandom rnd = new SplittableRandom(42);
        int[] sizesSeen = new int[16];
        int cases = 0;
        for (long seed = 0; cases < 24 && seed < 5000; seed++) {
            boolean senderConnect = rnd.nextBoolean();
            int sends = 2 + rnd.nextInt(2);
            List<Op> m = candidate(rnd, senderConnect, sends, 2 + rnd.nextInt(2));
            if (!isOnlyFailingSubset(seed, m)) continue;
            List<Op> input = bury(rnd, m, 200 + rnd.nextInt(400));
            assertTrue(fails(seed, input), "buried workload fails, seed " + seed);
            ShrinkResult r = new Shrinker(seed, NET, INVARIANTS, KEY, false).shrink(input);
            assertEquals(onePayloadByte(m), r.ops(), "seed " + seed);
            assertEquals(input.size(), r.before());
            assertEquals(m.size(), r.after());
            assertTrue(r.executions() < Shrinker.BUDGET);
            sizesSeen[m.size()]++;
            cases++;
        }
        assertEquals(24, cases);
        assertTrue(sizesSeen[6] > 0 && sizesSeen[7] > 0, "minima of 6 and 7 ops both covered");
    }

    @Test
    void parallelCandidateEvaluationGivesTheSameResultAndCount() {
        SplittableRandom rnd = new SplittableRandom(3);
        ForkJoinPool pool = new ForkJoinPool(4);
        try {
            int cases = 0;
            for (long seed = 0; cases < 10 && seed < 5000; seed++) {
                List<Op> m = candidate(rnd, true, 2, 2);
                if (!isOnlyFailingSubset(seed, m)) continue;
                List<Op> input = bury(rnd, m, 600);
                long s = seed;
                ShrinkResult sequential = new Shrinker(s, NET, INVARIANTS, KEY, false).shrink(input);
                ShrinkResult parallel = pool.invoke(java.util.concurrent.ForkJoinTask.adapt(
                        () -> new Shrinker(s, NET, INVARIANTS, KEY, true).shrink(input)));
                assertEquals(sequential, parallel);
                cases++;
            }
            assertEquals(10, cases);
        } finally {
            pool.shutdown();
        }
    }
}
