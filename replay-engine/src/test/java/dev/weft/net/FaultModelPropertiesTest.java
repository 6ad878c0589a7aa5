package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.VAddr;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Seeded-random property checks of the fault model (§3): purity, loss statistics, partitions, bandwidth. */
class FaultModelPropertiesTest {

    private static final String[] NETS = {"", "latency=uniform:1000-100000", "latency=exp:5000,loss=0.2",
            "latency=fixed:100,loss=0.5,bw=3000", "partition=0+1|2,loss=0.1,latency=uniform:0-9",
            "latency=exp:1000000000000,bw=1"};

    private static VAddr randomAddr(SplittableRandom rnd) {
        return new VAddr(rnd.nextBoolean() ? 0x7F000001L + rnd.nextInt(8) : rnd.nextLong(1L << 32), rnd.nextInt(1 << 16));
    }

    @Test
    void fateIsAPureFunctionOfItsInputs() throws Exception {
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 20_000; i++) {
            long seed = rnd.nextLong();
            String net = NETS[rnd.nextInt(NETS.length)];
            VAddr src = randomAddr(rnd);
            VAddr dst = randomAddr(rnd);
            long seq = rnd.nextInt(4) == 0 ? rnd.nextLong() : rnd.nextInt(100);
            int len = rnd.nextInt(2000);
            FaultModel model = FaultModel.of(seed, net);
            FaultModel.Fate first = model.fate(src, dst, seq, len);
            // Interleave unrelated calls: no hidden state may leak between fates.
            model.fate(dst, src, seq + 1, len + 1);
            assertEquals(first, model.fate(src, dst, seq, len));
            assertEquals(first, FaultModel.of(seed, net).fate(src, dst, seq, len));
        }
    }

    @Test
    void everyInputOfTheChannelStreamMatters() throws Exception {
        FaultModel model = FaultModel.of(5, "latency=uniform:0-1000000000");
        VAddr a = new VAddr(0x7F000001L, 100);
        VAddr b = new VAddr(0x7F000002L, 100);
        long base = model.fate(a, b, 3, 4).delayNs();
        assertFalse(base == model.fate(b, a, 3, 4).delayNs());
        assertFalse(base == model.fate(new VAddr(a.ip(), 101), b, 3, 4).delayNs());
        assertFalse(base == model.fate(a, new VAddr(b.ip(), 101), 3, 4).delayNs());
        assertFalse(base == model.fate(a, b, 4, 4).delayNs());
        assertFalse(base == FaultModel.of(6, "latency=uniform:0-1000000000").fate(a, b, 3, 4).delayNs());
        assertEquals(base, model.fate(a, b, 3, 4000).delayNs()); // len only matters with a bandwidth
    }

    @Test
    void lossRateIsWithinFiveSigma() throws Exception {
        for (double p : new double[]{0.1, 0.5}) {
            FaultModel model = FaultModel.of(77, "loss=" + p);
            SplittableRandom rnd = new SplittableRandom(78);
            int n = 200_000;
            int dropped = 0;
            for (int i = 0; i < n; i++) {
                VAddr src = randomAddr(rnd);
                VAddr dst = randomAddr(rnd);
                if (model.fate(src, dst, rnd.nextInt(1000), 10).dropped()) dropped++;
            }
            double sigma = Math.sqrt(n * p * (1 - p));
            assertTrue(Math.abs(dropped - n * p) <= 5 * sigma, "p=" + p + " dropped " + dropped + " of " + n);
        }
    }

    @Test
    void lossZeroAndOneAreExact() throws Exception {
        FaultModel none = FaultModel.of(1, "loss=0");
        FaultModel all = FaultModel.of(1, "loss=1");
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < 50_000; i++) {
            VAddr src = randomAddr(rnd);
            VAddr dst = randomAddr(rnd);
            long seq = rnd.nextLong();
            assertFalse(none.fate(src, dst, seq, 1).dropped());
            assertEquals(new FaultModel.Fate(true, 0), all.fate(src, dst, seq, 1));
        }
    }

    @Test
    void partitionDropsExactlyTheCrossGroupTraffic() throws Exception {
        // Groups {0,1}, {2}, {3,0}: node 0 belongs to its first group; 4.. and 4294967295 (x.x.x.0) are "rest".
        FaultModel model = FaultModel.of(9, "partition=0+1|2|3+0,latency=fixed:5");
        int[] groupOf = {0, 0, 1, 2, -1, -1, -1, -1};
        SplittableRandom rnd = new SplittableRandom(10);
        for (int i = 0; i < 20_000; i++) {
            int s = rnd.nextInt(8);
            int d = rnd.nextInt(8);
            // Node n is any ip whose low byte is n+1; the upper bytes do not matter.
            VAddr src = new VAddr((rnd.nextLong(1L << 24) << 8) | (s + 1), rnd.nextInt(1 << 16));
            VAddr dst = new VAddr((rnd.nextLong(1L << 24) << 8) | (d + 1), rnd.nextInt(1 << 16));
            FaultModel.Fate fate = model.fate(src, dst, rnd.nextInt(50), 3);
            assertEquals(groupOf[s] != groupOf[d], fate.dropped(), "node " + s + " -> node " + d);
            if (!fate.dropped()) assertEquals(5, fate.delayNs());
        }
        // x.x.x.0 is node 4294967295: unlisted, so it shares "rest" with node 7
        VAddr zero = new VAddr(0x0A000000L, 1);
        VAddr node7 = new VAddr(0x7F000008L, 1);
        VAddr node2 = new VAddr(0x7F000003L, 1);
        assertFalse(model.fate(zero, node7, 0, 1).dropped());
        assertTrue(model.fate(zero, node2, 0, 1).dropped());
    }

    @Test
    void unlistedNodesShareTheRestGroup() throws Exception {
        FaultModel model = FaultModel.of(3, "partition=0");
        SplittableRandom rnd = new SplittableRandom(4);
        for (int i = 0; i < 5_000; i++) {
            VAddr a = new VAddr(0x7F000002L + rnd.nextInt(200), 1); // nodes 1..200
            VAddr b = new VAddr(0x7F000002L + rnd.nextInt(200), 2);
            assertFalse(model.fate(a, b, i, 1).dropped());
            assertTrue(model.fate(a, VAddr.ofNode(0, 3), i, 1).dropped());
            assertTrue(model.fate(VAddr.ofNode(0, 3), b, i, 1).dropped());
        }
        assertFalse(model.fate(VAddr.ofNode(0, 3), VAddr.ofNode(0, 4), 0, 1).dropped());
    }

    @Test
    void partitionDrawsNoDeviate() throws Exception {
        // Same-group traffic gets exactly the fate it would get without the partition clause.
        FaultModel with = FaultModel.of(21, "partition=0+1|2,latency=uniform:0-100000,loss=0.3");
        FaultModel without = FaultModel.of(21, "latency=uniform:0-100000,loss=0.3");
        for (int seq = 0; seq < 1000; seq++) {
            assertEquals(without.fate(VAddr.ofNode(0, 1), VAddr.ofNode(1, 1), seq, 8),
                    with.fate(VAddr.ofNode(0, 1), VAddr.ofNode(1, 1), seq, 8));
        }
    }

    @Test
    void bandwidthAddsSerialisationTimeAndSaturates() throws Exception {
        VAddr a = VAddr.ofNode(0, 1);
        VAddr b = VAddr.ofNode(1, 1);
        assertEquals(250 + 1333333, FaultModel.of(0, "latency=fixed:250,bw=3000").fate(a, b, 0, 4).delayNs());
        assertEquals(0, FaultModel.of(0, "bw=3000").fate(a, b, 0, 0).delayNs());
        assertEquals(Integer.MAX_VALUE * 1_000_000_000L, FaultModel.of(0, "bw=1").fate(a, b, 0, Integer.MAX_VALUE).delayNs());
        // delay + ser saturates at 2^64-1
        assertEquals(-1L, FaultModel.of(0, "latency=fixed:18446744073709551000,bw=1").fate(a, b, 0, 1).delayNs());
        assertEquals(-1L, FaultModel.of(0, "latency=fixed:18446744073709551615,bw=1000000000").fate(a, b, 0, 1).delayNs());
        assertEquals(-2L, FaultModel.of(0, "latency=fixed:18446744073709551613,bw=1000000000").fate(a, b, 0, 1).delayNs());
        // len·10^9 saturates before the division (only reachable with lengths beyond int)
        assertEquals(-1L, FaultModel.serializationNs(-1L, 1));
        assertEquals(Long.divideUnsigned(-1L, 3), FaultModel.serializationNs(1L << 40, 3));
        assertEquals(18446744073L, FaultModel.serializationNs(18446744073L, 1_000_000_000L));
        assertEquals(0, FaultModel.serializationNs(1, -1L)); // 10^9 / (2^64-1)
    }
}
