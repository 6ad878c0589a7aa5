package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
    @Test
    void everyValueFallsInABucketWhoseBoundIsWithinOneSixteenth() {
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 100_000; i++) {
            long v = r.nextLong(1L << r.nextInt(1, 63));
            long hi = LatencyHistogram.upperBound(LatencyHistogram.bucket(v));
            assertTrue(hi >= v && hi - v <= v / 16 + 1, v + " -> " + hi);
        }
        assertEquals(LatencyHistogram.upperBound(LatencyHistogram.bucket(-1L)), -1L, "u64 max fits");
    }

    @Test
    void percentilesOfAKnownDistribution() {
        LatencyHistogram h = new LatencyHistogram();
        assertEquals(0, h.percentile(0.5));
        for (long v = 1; v <= 1000; v++) {
            h.add(v);
        }
        assertEquals(1000, h.count());
        assertEquals(1000, h.max());
        long p50 = h.percentile(0.5);
        long p99 = h.percentile(0.99);
        assertTrue(p50 >= 500 && p50 <= 500 + 500 / 16 + 1, "p50 " + p50);
        assertTrue(p99 >= 990 && p99 <= 1000, "p99 " + p99);
        assertEquals(1000, h.percentile(1.0));
    }
}
