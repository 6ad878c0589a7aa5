package dev.weft.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SeedTextTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "42|42", "+42|42", "0|0", "0xDEADBEEF|3735928559", "0X+ff|255", "18446744073709551615|18446744073709551615",
        "0xffffffffffffffff|18446744073709551615", "007|7"})
    void acceptsTheSpecSyntax(String text, String unsigned) throws Exception {
        assertEquals(unsigned, Long.toUnsignedString(SeedText.parse(text)));
    }

    @Test
    void trimsUnicodeWhiteSpace() throws Exception {
        assertEquals(7, SeedText.parse("\u3000 7\u00a0\t"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "18446744073709551616|invalid decimal seed", "-1|invalid decimal seed", "1_0|invalid decimal seed",
        "abc|invalid decimal seed", "0x|invalid hex seed", "0xg|invalid hex seed",
        "0x10000000000000000|invalid hex seed", "' '|empty seed"})
    void rejectsWithTheSpecReason(String text, String reason) {
        var e = assertThrows(SeedText.InvalidSeedException.class, () -> SeedText.parse(text));
        assertEquals(reason, e.getMessage());
    }

    @Test
    void emptyIsEmpty() {
        assertEquals("empty seed", assertThrows(SeedText.InvalidSeedException.class, () -> SeedText.parse("")).getMessage());
    }
}
