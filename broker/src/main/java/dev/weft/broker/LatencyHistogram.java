package dev.weft.broker;

/**
 * A log-linear histogram of non-negative u64 values (ns): 64 power-of-two ranges, each split into 16 linear
 * sub-buckets, so any percentile is reported within 1/16 (6.25 %) of the true value in constant memory.
 * Not thread-safe; the broker updates it under its ordering lock.
 */
public final class LatencyHistogram {
    private static final int SUB = 16;
    private static final int SUB_BITS = 4;
    private final long[] counts = new long[65 * SUB];
    private long total;
    private long max;

    public void add(long value) {
        counts[bucket(value)]++;
        total++;
        if (Long.compareUnsigned(value, max) > 0) {
            max = value;
        }
    }

    public long count() {
        return total;
    }

    public long max() {
        return max;
    }

    /** The smallest bucket upper bound covering fraction q of the values (q in (0, 1]); 0 when empty. */
    public long percentile(double q) {
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * total);
        long seen = 0;
        for (int b = 0; b < counts.length; b++) {
            seen += counts[b];
            if (seen >= rank) {
                long hi = upperBound(b);
                return Long.compareUnsigned(hi, max) > 0 ? max : hi;
            }
        }
        return max;
    }

    static int bucket(long v) {
        if (Long.compareUnsigned(v, SUB) < 0) {
            return (int) v;
        }
        int exp = 63 - Long.numberOfLeadingZeros(v); // >= SUB_BITS
        int sub = (int) ((v >>> (exp - SUB_BITS)) & (SUB - 1));
        return (exp - SUB_BITS + 1) * SUB + sub;
    }

    static long upperBound(int b) {
        if (b < SUB) {
            return b;
        }
        int exp = b / SUB + SUB_BITS - 1;
        int sub = b % SUB;
        long base = 1L << exp;
        long width = 1L << (exp - SUB_BITS);
        return base + (sub + 1) * width - 1;
    }
}
