package dev.weft.scenario;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Rust's {@code Display} of an f64: the shortest decimal that reads back as the same double, written
 * without exponent and without a trailing {@code .0} (1.5 → {@code 1.5}, 2.0 → {@code 2},
 * 1e21 → {@code 1000000000000000000000}, 1e-7 → {@code 0.0000001}). Java 17's Double.toString is
 * neither exponent-free nor always shortest, so the digits are found here with exact BigDecimal math.
 */
public final class RustFloatText {

    private RustFloatText() {
    }

    public static String display(double x) {
        if (Double.isNaN(x)) return "NaN";
        if (Double.isInfinite(x)) return x > 0 ? "inf" : "-inf";
        if (x == 0) return (Double.doubleToRawLongBits(x) < 0) ? "-0" : "0";
        BigDecimal shortest = shortestRoundTrip(x);
        return shortest.stripTrailingZeros().toPlainString();
    }

    private static final BigDecimal HALF = new BigDecimal("0.5");

    /** The decimal with the fewest significant digits that parses back to x; the closest one among equals. */
    static BigDecimal shortestRoundTrip(double x) {
        double a = Math.abs(x);
        BigDecimal exact = new BigDecimal(a);
        // Every decimal in [low, high] reads back as a (ends included only for an even significand, as
        // round-half-even decides ties). Below a power of two the gap is half as wide as above it.
        BigDecimal low = exact.subtract(exact.subtract(new BigDecimal(Math.nextDown(a))).multiply(HALF));
        BigDecimal high = exact.add(new BigDecimal(Math.ulp(a)).multiply(HALF));
        boolean even = (Double.doubleToRawLongBits(a) & 1) == 0;
        for (int digits = 1; digits <= 17; digits++) {
            // The nearest decimal of this length wins if it reads back as x; if not, its other neighbour
            // still can where the interval is lopsided.
            BigDecimal nearest = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (inside(nearest, low, high, even)) return signed(nearest, x);
            BigDecimal other = exact.round(new MathContext(digits, nearest.compareTo(exact) < 0 ? RoundingMode.CEILING : RoundingMode.FLOOR));
            if (inside(other, low, high, even)) return signed(other, x);
        }
        return signed(exact, x); // unreachable: 17 significant digits always round-trip
    }

    private static boolean inside(BigDecimal d, BigDecimal low, BigDecimal high, boolean endsIncluded) {
        int lo = d.compareTo(low), hi = d.compareTo(high);
        return endsIncluded ? lo >= 0 && hi <= 0 : lo > 0 && hi < 0;
    }

    private static BigDecimal signed(BigDecimal magnitude, double x) {
        return x < 0 ? magnitude.negate() : magnitude;
    }
}
