package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** f2u and u64→f64 conversions (net-and-fault-model.md §3.4, docs/spec/README.md, risk 2) and saturating arithmetic. */
class UnsignedTest {

    private static final long MAX = -1L;

    @Test
    void fromDoubleSaturatesAndTruncates() {
        assertEquals(0, Unsigned.fromDouble(Double.NaN));
        assertEquals(0, Unsigned.fromDouble(-0.0));
        assertEquals(0, Unsigned.fromDouble(0.0));
        assertEquals(0, Unsigned.fromDouble(-1.5));
        assertEquals(0, Unsigned.fromDouble(Double.NEGATIVE_INFINITY));
        assertEquals(0, Unsigned.fromDouble(Double.MIN_VALUE));
        assertEquals(0, Unsigned.fromDouble(0.999999));
        assertEquals(1, Unsigned.fromDouble(1.999999));
        assertEquals(92954, Unsigned.fromDouble(92954.9999));
        assertEquals(MAX, Unsigned.fromDouble(0x1p64));
        assertEquals(MAX, Unsigned.fromDouble(1e30));
        assertEquals(MAX, Unsigned.fromDouble(Double.POSITIVE_INFINITY));
        assertEquals(MAX, Unsigned.fromDouble(Double.MAX_VALUE));
        // [2^63, 2^64): beyond Java's signed (long) cast, which would give 2^63-1
        assertEquals(Long.MIN_VALUE, Unsigned.fromDouble(0x1p63));
        assertEquals(0xFFFF_FFFF_FFFF_F800L, Unsigned.fromDouble(Math.nextDown(0x1p64)));
        assertEquals(0xC000_0000_0000_0000L, Unsigned.fromDouble(0x1.8p63));
        assertEquals(Long.MAX_VALUE - 1023, Unsigned.fromDouble(Math.nextDown(0x1p63)));
    }

    @Test
    void fromDoubleMatchesBigDecimalTruncation() {
        SplittableRandom rnd = new SplittableRandom(8);
        BigInteger two64 = BigInteger.ONE.shiftLeft(64);
        for (int i = 0; i < 20_000; i++) {
            double x = Math.scalb(rnd.nextDouble(), rnd.nextInt(-3, 67));
            BigInteger t = new BigDecimal(x).setScale(0, RoundingMode.DOWN).toBigInteger();
            long expected = t.compareTo(two64) >= 0 ? MAX : t.longValue();
            assertEquals(expected, Unsigned.fromDouble(x), "x=" + x);
        }
    }

    @Test
    void toDoubleRoundsHalfToEven() {
        assertEquals(0x1p64, Unsigned.toDouble(MAX));
        assertEquals(0x1p63, Unsigned.toDouble(Long.MIN_VALUE));
        // 2^63 + 1024 is a tie between 2^63 and 2^63 + 2048: even mantissa wins (2^63)
        assertEquals(0x1p63, Unsigned.toDouble(Long.MIN_VALUE + 1024));
        assertEquals(0x1p63 + 2048, Unsigned.toDouble(Long.MIN_VALUE + 1025));
        // 2^63 + 3·1024 is a tie between 2^63+2048 and 2^63+4096: even is 2^63+4096
        assertEquals(0x1p63 + 4096, Unsigned.toDouble(Long.MIN_VALUE + 3072));
        SplittableRandom rnd = new SplittableRandom(9);
        for (int i = 0; i < 20_000; i++) {
            long v = rnd.nextLong();
            double expected = new BigDecimal(new BigInteger(Long.toUnsignedString(v))).doubleValue();
            assertEquals(expected, Unsigned.toDouble(v), Long.toUnsignedString(v));
        }
    }

    @Test
    void saturatingArithmetic() {
        assertEquals(MAX, Unsigned.saturatingAdd(MAX, 1));
        assertEquals(MAX, Unsigned.saturatingAdd(Long.MIN_VALUE, Long.MIN_VALUE));
        assertEquals(MAX - 1, Unsigned.saturatingAdd(Long.MIN_VALUE, Long.MAX_VALUE - 1));
        assertEquals(MAX, Unsigned.saturatingMul(MAX, 20));
        assertEquals(MAX, Unsigned.saturatingMul(1L << 32, 1L << 32));
        assertEquals(Long.MIN_VALUE, Unsigned.saturatingMul(1L << 32, 1L << 31));
        assertEquals(20_000_000_000_000L, Unsigned.saturatingMul(1_000_000_000_000L, 20));
        assertEquals(0, Unsigned.saturatingMul(0, MAX));
        assertEquals(MAX, Unsigned.saturatingMul(922337203685477581L * 2, 10)); // 18446744073709551620 > 2^64-1
        assertEquals(-6L, Unsigned.saturatingMul(1844674407370955161L, 10)); // 18446744073709551610 fits
        assertEquals(MAX, Unsigned.max(MAX, 3));
        assertEquals(3, Unsigned.min(MAX, 3));
    }
}
