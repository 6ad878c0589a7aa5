package dev.weft.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RustFloatTextTest {

    @ParameterizedTest
    @CsvSource({
        "1.5, 1.5", "2.0, 2", "-2.0, -2", "1e21, 1000000000000000000000", "1e-7, 0.0000001",
        "0.1, 0.1", "0.3, 0.3", "100, 100", "1e23, 100000000000000000000000", "-0.0, -0", "0, 0",
        "2.0E-3, 0.002", "1.0000000000000002, 1.0000000000000002", "0.30000000000000004, 0.30000000000000004",
        "9007199254740993, 9007199254740992", "123456.789, 123456.789",
    })
    void rendersLikeRustDisplay(double x, String expected) {
        assertEquals(expected, RustFloatText.display(x));
    }

    @Test
    void extremesArePrintedInFull() {
        assertEquals("0." + "0".repeat(323) + "5", RustFloatText.display(Double.MIN_VALUE));
        assertEquals("17976931348623157" + "0".repeat(292), RustFloatText.display(Double.MAX_VALUE));
    }

    @Test
    void specialValues() {
        assertEquals("NaN", RustFloatText.display(Double.NaN));
        assertEquals("inf", RustFloatText.display(Double.POSITIVE_INFINITY));
        assertEquals("-inf", RustFloatText.display(Double.NEGATIVE_INFINITY));
    }

    /** Whatever the bits, the text reads back as the same double and has no exponent. */
    @Test
    void roundTripsForRandomBitPatterns() {
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < 8_000; i++) {
            // half arbitrary bit patterns (mostly huge or tiny: hundreds of digits), half ordinary magnitudes
            double x = i % 2 == 0 ? Double.longBitsToDouble(rnd.nextLong()) : (rnd.nextDouble() - 0.5) * Math.pow(10, rnd.nextInt(-12, 25));
            if (Double.isNaN(x) || Double.isInfinite(x)) continue;
            String s = RustFloatText.display(x);
            assertEquals(x, Double.parseDouble(s), s);
            assertEquals(-1, s.indexOf('E'), s);
            // Java 17 prints shortest for most values: the significant digits must never be more than Java's
            String javaDigits = new java.math.BigDecimal(Double.toString(x)).stripTrailingZeros().unscaledValue().abs().toString();
            String ours = new java.math.BigDecimal(s).stripTrailingZeros().unscaledValue().abs().toString();
            assertEquals(true, ours.length() <= javaDigits.length(), x + " ours " + s + " java " + Double.toString(x));
        }
    }
}
