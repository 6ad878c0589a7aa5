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

    /** The decimal with the fewest significant digits that parses back to x; the closest one among equals. */
    static BigDecimal shortestRoundTrip(double x) {
        BigDecimal exact = new BigDecimal(x);
        for (int digits = 1; digits <= 17; digits++) {
            BigDecimal best = null;
            // Nearest first; the directed roundings catch the asymmetric interval at powers of two.
            for (RoundingMode mode : new RoundingMode[] {RoundingMode.HALF_EVEN, RoundingMode.FLOOR, RoundingMode.CEILING}) {
                BigDecimal candidate = exact.round(new MathContext(digits, mode));
                if (candidate.doubleValue() == x) {
                    if (best == null || candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0) {
                        best = candidate;
                    }
                }
            }
            if (best != null) return best;
        }
        return exact; // unreachable: 17 significant digits always round-trip
    }
}
