package dev.weft.net;

/** u64 helpers for values held in {@code long}: saturating arithmetic and exact conversions to and from binary64. */
public final class Unsigned {

    public static final long MAX = -1L;
    private static final double TWO_POW_63 = 0x1p63;
    private static final double TWO_POW_64 = 0x1p64;

    private Unsigned() {
    }

    /** a + b clamped to 2^64-1. */
    public static long saturatingAdd(long a, long b) {
        long s = a + b;
        return Long.compareUnsigned(s, a) < 0 ? MAX : s;
    }

    /** a * b clamped to 2^64-1. */
    public static long saturatingMul(long a, long b) {
        if (unsignedMultiplyHigh(a, b) != 0) return MAX;
        return a * b;
    }

    /** High 64 bits of the 128-bit unsigned product (Math.unsignedMultiplyHigh is Java 18+). */
    static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    public static long max(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    public static long min(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** The u64 as the nearest binary64 (round half to even), like Rust's {@code u64 as f64}. */
    public static double toDouble(long v) {
        if (v >= 0) return (double) v;
        // Halve keeping the dropped bit as a sticky bit so the single rounding below stays correct.
        double half = (double) ((v >>> 1) | (v & 1));
        return half * 2.0;
    }

    /**
     * binary64 to u64 by truncation toward zero, saturating like Rust's {@code f64 as u64}: NaN and
     * anything at or below zero give 0, anything at or above 2^64 gives 2^64-1.
     */
    public static long fromDouble(double x) {
        if (!(x > 0)) return 0; // NaN, -0.0, 0.0, negatives
        if (x >= TWO_POW_64) return MAX;
        if (x < TWO_POW_63) return (long) x;
        // x in [2^63, 2^64) is an integer; subtracting 2^63 is exact.
        return ((long) (x - TWO_POW_63)) ^ Long.MIN_VALUE;
    }
}
