package dev.weft.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class RustTextTest {

    private static final String WHITE_SPACE = "\t\n\u000B\u000C\r \u0085\u00A0\u1680\u2000\u2001\u2002\u2003\u2004"
            + "\u2005\u2006\u2007\u2008\u2009\u200A\u2028\u2029\u202F\u205F\u3000";

    @Test
    void trimRemovesEveryWhiteSpaceCharacterAtBothEnds() {
        assertEquals("a b", RustText.trim(WHITE_SPACE + "a b" + WHITE_SPACE));
        for (char c : WHITE_SPACE.toCharArray()) {
            assertEquals("x", RustText.trim(c + "x" + c), "U+" + Integer.toHexString(c));
        }
        assertEquals("", RustText.trim(WHITE_SPACE));
    }

    @Test
    void trimKeepsWhatIsNotWhiteSpace() {
        // Java's trim() strips all controls; Rust keeps those without White_Space. ZWSP, BOM, U+180E are not White_Space.
        for (String s : new String[]{"\u0000", "\u001F", "\u200B", "\uFEFF", "\u180E", "\u0001", "\u2060"}) {
            assertEquals(s + "x" + s, RustText.trim(s + "x" + s));
        }
        assertEquals("a\u00A0b", RustText.trim(" a\u00A0b "));
    }

    /** Inputs and their Rust {@code {:?}} quoting. */
    static Stream<Arguments> debugQuoted() {
        return Stream.of(
                // Escapes.
                arguments("foo", "\"foo\""),
                arguments("", "\"\""),
                arguments("a\"b\\c'", "\"a\\\"b\\\\c'\""),
                arguments("\t\r\n\0", "\"\\t\\r\\n\\0\""),
                arguments("\u0001\u001F\u007F\u000B\u000C", "\"\\u{1}\\u{1f}\\u{7f}\\u{b}\\u{c}\""),
                arguments("\u0085\u00A0\u00AD", "\"\\u{85}\\u{a0}\\u{ad}\""),
                // Printable non-ASCII is kept.
                arguments("é→✗—日本 ok 😀", "\"é→✗—日本 ok 😀\""),
                // Non-printable code points are escaped: Cf, Zl/Zp, Zs other than space, private use, unassigned,
                // combining marks (Grapheme_Extend), a lone surrogate (not a Rust string), a supplementary-plane Cf.
                arguments("\u200B\u200E\uFEFF", "\"\\u{200b}\\u{200e}\\u{feff}\""),
                arguments("\u2028\u2029", "\"\\u{2028}\\u{2029}\""),
                arguments("\u3000\u2003\u1680", "\"\\u{3000}\\u{2003}\\u{1680}\""),
                arguments("\uE000\uDBFF\uDFFF", "\"\\u{e000}\\u{10ffff}\""),
                arguments("\u0378", "\"\\u{378}\""),
                arguments("e\u0301", "\"e\\u{301}\""),
                arguments("\uD800", "\"\\u{d800}\""),
                arguments(new String(Character.toChars(0xE0001)), "\"\\u{e0001}\""));
    }

    @ParameterizedTest
    @MethodSource("debugQuoted")
    void debugQuote(String input, String quoted) {
        assertEquals(quoted, RustText.debugQuote(input));
    }

    @Test
    void parseU64() {
        assertEquals(0, RustText.parseU64("0"));
        assertEquals(5, RustText.parseU64("+005"));
        assertEquals(-1L, RustText.parseU64("18446744073709551615"));
        assertEquals(-1L, RustText.parseU64("0018446744073709551615"));
        assertEquals(Long.MIN_VALUE, RustText.parseU64("9223372036854775808"));
        assertEquals(1844674407370955161L * 10, RustText.parseU64("18446744073709551610"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "+", "-0", "-1", "++1", "+-1", " 1", "1 ", "1_0", "0x1", "1.0", "١", "１",
            "18446744073709551616", "18446744073709551620", "99999999999999999999", "184467440737095516150"})
    void parseU64Rejects(String s) {
        assertThrows(NumberFormatException.class, () -> RustText.parseU64(s));
    }

    @Test
    void parseU32() {
        assertEquals(4294967295L, RustText.parseU32("4294967295"));
        assertEquals(7, RustText.parseU32("+07"));
        for (String s : new String[]{"4294967296", "-0", "", "+", "1e3", "99999999999999999999999"}) {
            assertThrows(NumberFormatException.class, () -> RustText.parseU32(s), s);
        }
    }

    @Test
    void parseI32() {
        assertEquals(-2147483648, RustText.parseI32("-2147483648"));
        assertEquals(2147483647, RustText.parseI32("+2147483647"));
        assertEquals(0, RustText.parseI32("-0"));
        assertEquals(-12, RustText.parseI32("-012"));
        for (String s : new String[]{"2147483648", "-2147483649", "-", "+", "", "--1", " 1", "1a", "99999999999999999999"}) {
            assertThrows(NumberFormatException.class, () -> RustText.parseI32(s), s);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {".5", "5.", "+0.5", "1.e5", "0.5e-2", "00.5", "-1", "1E+3", "1e-3", "0", "-.5e1",
            "123456789012345678901234567890", "1e400", "1e-400", "0.1000000000000000055511151231257827"})
    void parseF64AcceptsRustSyntaxCorrectlyRounded(String s) {
        assertEquals(Double.parseDouble(s), RustText.parseF64(s));
    }

    @Test
    void parseF64Specials() {
        assertEquals(Double.POSITIVE_INFINITY, RustText.parseF64("inf"));
        assertEquals(Double.POSITIVE_INFINITY, RustText.parseF64("+Infinity"));
        assertEquals(Double.NEGATIVE_INFINITY, RustText.parseF64("-INF"));
        assertEquals(Double.NEGATIVE_INFINITY, RustText.parseF64("-iNfInItY"));
        assertEquals(Double.NaN, RustText.parseF64("NaN"));
        assertEquals(Double.NaN, RustText.parseF64("-nan"));
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(RustText.parseF64("-0")));
        assertEquals(0.0, RustText.parseF64("0e99999999999999999999999"));
        assertEquals(Double.POSITIVE_INFINITY, RustText.parseF64("1e99999999999999999999999"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x1", "1_0", "e5", "1e", "0.5d", "0x1p-1", "", ".", "+", "-", "+-1", "1e+", "1e-", "1f",
            "1.0F", "1D", " 1", "1 ", "infin", "nana", "in", "Infinityy", "1..0", "1.0.0", "١", "1e5.0", ".e5", "0x1.8p1"})
    void parseF64RejectsJavaOnlyAndMalformedForms(String s) {
        assertThrows(NumberFormatException.class, () -> RustText.parseF64(s));
    }
}
