package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * CorrectlyRoundedLog against a 90-digit BigDecimal reference: the double-double stage is checked for its
 * claimed accuracy (so the rounding decision is sound) and the final result for exact agreement.
 */
class CorrectlyRoundedLogTest {

    private static final BigDecimal DD_BOUND = new BigDecimal(0x1p-95);

    /** The doubles the fault model feeds to ln: 1 - u for u = k / 2^53. */
    private static double oneMinusUnit(SplittableRandom rnd) {
        return 1.0 - (rnd.nextLong() >>> 11) * 0x1p-53;
    }

    /** A random positive finite double, uniformly over bit patterns (all binades, subnormals included). */
    private static double anyPositive(SplittableRandom rnd) {
        double x;
        do {
            x = Double.longBitsToDouble(rnd.nextLong() >>> 1);
        } while (Double.isNaN(x) || Double.isInfinite(x) || x == 0);
        return x;
    }

    private static void assertDoubleDoubleAccurate(double x) {
        double[] dd = new double[2];
        CorrectlyRoundedLog.lnDoubleDouble(x, dd);
        BigDecimal exact = CorrectlyRoundedLog.lnBig(x);
        BigDecimal approx = new BigDecimal(dd[0]).add(new BigDecimal(dd[1]));
        BigDecimal relErr = approx.subtract(exact).abs().divide(exact.abs(), MathContext.DECIMAL64);
        assertTrue(relErr.compareTo(DD_BOUND) <= 0, "x=" + x + " relative error " + relErr);
        assertTrue(Math.abs(dd[1]) <= Math.ulp(dd[0]) / 2, "not normalised at x=" + x);
    }

    private static void assertCorrectlyRounded(double x) {
        assertEquals(CorrectlyRoundedLog.reference(x), CorrectlyRoundedLog.ln(x), "ln(" + x + ")");
    }

    @Test
    void doubleDoubleStageMeetsItsErrorBound() {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 2_000; i++) {
            assertDoubleDoubleAccurate(oneMinusUnit(rnd));
            assertDoubleDoubleAccurate(anyPositive(rnd));
            // Very close to 1 on both sides, where cancellation would hurt a naive evaluation.
            double near = 1 + (rnd.nextBoolean() ? 1 : -1) * Math.scalb(rnd.nextDouble(), -rnd.nextInt(1, 53));
            if (near != 1) assertDoubleDoubleAccurate(near);
        }
    }

    @Test
    void agreesWithTheReferenceOnTheFaultModelsDomain() {
        SplittableRandom rnd = new SplittableRandom(2024);
        for (int i = 0; i < 6_000; i++) assertCorrectlyRounded(oneMinusUnit(rnd));
    }

    @Test
    void agreesWithTheReferenceOnAllBinades() {
        SplittableRandom rnd = new SplittableRandom(99);
        for (int i = 0; i < 4_000; i++) assertCorrectlyRounded(anyPositive(rnd));
    }

    @Test
    void edgeCases() {
        double[] xs = {Double.MIN_VALUE, Double.MIN_NORMAL, Math.nextDown(Double.MIN_NORMAL), Double.MAX_VALUE,
                Math.nextUp(1.0), Math.nextDown(1.0), 1 - 0x1p-53, 0x1p-53, 2, 0.5, Math.E, 10, 0.1,
                Math.sqrt(2), Math.nextUp(Math.sqrt(2)), Math.nextDown(Math.sqrt(2)), Math.sqrt(0.5),
                Math.nextUp(Math.sqrt(0.5)), Math.nextDown(Math.sqrt(0.5)), 1 + 1 / 256.0, 1 - 1 / 256.0,
                1 + 3 / 256.0, 0x1p1023, 0x1p-1022, 0x1p-1074, 3, 1e-300, 1e300, 0.75, 1.5};
        for (double x : xs) {
            assertCorrectlyRounded(x);
            assertDoubleDoubleAccurate(x);
        }
        for (int e = -1074; e <= 1023; e++) assertCorrectlyRounded(Math.scalb(1.0, e));
    }

    @Test
    void specialValues() {
        assertEquals(0.0, CorrectlyRoundedLog.ln(1.0));
        assertEquals(Double.doubleToRawLongBits(0.0), Double.doubleToRawLongBits(CorrectlyRoundedLog.ln(1.0)));
        assertEquals(Double.NEGATIVE_INFINITY, CorrectlyRoundedLog.ln(0.0));
        assertEquals(Double.NEGATIVE_INFINITY, CorrectlyRoundedLog.ln(-0.0));
        assertEquals(Double.POSITIVE_INFINITY, CorrectlyRoundedLog.ln(Double.POSITIVE_INFINITY));
        assertTrue(Double.isNaN(CorrectlyRoundedLog.ln(Double.NaN)));
        assertTrue(Double.isNaN(CorrectlyRoundedLog.ln(-1)));
        assertTrue(Double.isNaN(CorrectlyRoundedLog.ln(Double.NEGATIVE_INFINITY)));
        assertEquals(-36.7368005696771, CorrectlyRoundedLog.ln(0x1p-53)); // -53·ln2
        assertEquals(0.6931471805599453, CorrectlyRoundedLog.ln(2));
    }

    @Test
    void withinOneUlpOfMathLog() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 100_000; i++) {
            double x = oneMinusUnit(rnd);
            double ours = CorrectlyRoundedLog.ln(x);
            assertTrue(Math.abs(ours - Math.log(x)) <= Math.ulp(ours), "x=" + x);
        }
    }
}
