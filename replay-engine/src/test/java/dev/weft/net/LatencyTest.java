package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Latency sampling (§3.4) beyond the reference vectors: extremes of u, spans and means. */
class LatencyTest {

    private static final long MAX = -1L;
    private static final double LAST_U = 1 - 0x1p-53; // the largest deviate unit() can return

    @Test
    void fixedIgnoresTheDeviate() {
        assertEquals(250, new Latency.Fixed(250).sample(0.99));
        assertEquals(MAX, new Latency.Fixed(MAX).sample(0));
    }

    @Test
    void uniformEndsAndHugeSpans() {
        assertEquals(1000, new Latency.Uniform(1000, 100000).sample(0));
        assertEquals(99999, new Latency.Uniform(1000, 100000).sample(LAST_U));
        assertEquals(7, new Latency.Uniform(7, 7).sample(LAST_U));
        // span 2^64-1 converts to 2^64; 2^64·(1-2^-53) = 2^64-2048 exactly
        assertEquals(0xFFFF_FFFF_FFFF_F800L, new Latency.Uniform(0, MAX).sample(LAST_U));
        assertEquals(Long.MIN_VALUE, new Latency.Uniform(0, MAX).sample(0.5));
        // lo and span beyond 2^63 stay unsigned: 2^63 + (2^63-1 → 2^63)·0.5 = 2^63 + 2^62
        assertEquals(0xC000_0000_0000_0000L, new Latency.Uniform(Long.MIN_VALUE, MAX).sample(0.5));
        // lo + the scaled span stays unsigned: 5 + (2^64-2048)
        assertEquals(0xFFFF_FFFF_FFFF_F805L, new Latency.Uniform(5, MAX).sample(LAST_U));
    }

    @Test
    void uniformMatchesTheFormulaOnRandomInputs() {
        SplittableRandom rnd = new SplittableRandom(4);
        for (int i = 0; i < 100_000; i++) {
            long lo = rnd.nextLong(0, 1L << 40);
            long hi = lo + rnd.nextLong(0, 1L << 40);
            double u = (rnd.nextLong() >>> 11) * 0x1p-53;
            long expected = lo + (long) Math.floor((double) (hi - lo) * u);
            assertEquals(expected, new Latency.Uniform(lo, hi).sample(u));
        }
    }

    @Test
    void exponentialEdgeCases() {
        assertEquals(0, new Latency.Exponential(5000).sample(0)); // ln(1) = 0, -mean·0 = -0.0 → 0
        assertEquals(0, new Latency.Exponential(0).sample(0.7));
        // u close to 1: -ln(2^-53)·mean = 36.7·mean exceeds the cap of 20·mean
        assertEquals(100_000, new Latency.Exponential(5000).sample(LAST_U));
        assertEquals(20_000_000_000_000L, new Latency.Exponential(1_000_000_000_000L).sample(LAST_U));
        // the cap itself saturates, and f2u saturates at 2^64-1
        assertEquals(MAX, new Latency.Exponential(MAX).sample(LAST_U));
        assertEquals(MAX, new Latency.Exponential(1L << 62).sample(LAST_U));
        // mean·ln2 for u = 0.5
        assertEquals(3465, new Latency.Exponential(5000).sample(0.5));
    }

    @Test
    void exponentialWithMeanTenToTheTwelveUsesTheCorrectlyRoundedLog() {
        long mean = 1_000_000_000_000L;
        Latency.Exponential exp = new Latency.Exponential(mean);
        SplittableRandom rnd = new SplittableRandom(12);
        for (int i = 0; i < 3_000; i++) {
            double u = (rnd.nextLong() >>> 11) * 0x1p-53;
            double x = -1e12 * CorrectlyRoundedLog.reference(1.0 - u);
            long expected = Math.min((long) x, 20 * mean);
            assertEquals(expected, exp.sample(u), "u=" + u);
        }
    }

    @Test
    void minDelayIsTheLookahead() {
        assertEquals(9, new Latency.Fixed(9).minDelay());
        assertEquals(3, new Latency.Uniform(3, 8).minDelay());
        assertEquals(0, new Latency.Exponential(8).minDelay());
    }
}
