package dev.weft.json;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The shared lexing primitives: each problem code and the byte it is located at, which both readers word. */
class JsonLexerTest {

    private static final class Lexer extends JsonLexer {
        Lexer(String text) {
            b = text.getBytes(StandardCharsets.UTF_8);
            end = b.length;
        }
    }

    /** Scans the string whose opening quote is the first byte: "code@position" (or "0@p" and the decoded text). */
    private static String string(String text) {
        Lexer l = new Lexer(text);
        l.p = 1;
        StringBuilder out = new StringBuilder();
        int code = l.scanString(out);
        return code + "@" + l.p + (code == 0 ? " " + out : "");
    }

    private static String number(String text) {
        Lexer l = new Lexer(text);
        int code = l.scanNumber();
        return code + "@" + l.p;
    }

    @Test
    void numbersAreScannedToTheirEndOrTheOffendingByte() {
        assertEquals(JsonLexer.NUMBER_INT + "@3", number("-12,"));
        assertEquals(JsonLexer.NUMBER_INT + "@1", number("0]"));
        assertEquals(JsonLexer.NUMBER_FLOAT + "@7", number("1.5e+10"));
        assertEquals(JsonLexer.NUMBER_FLOAT + "@4", number("2E-1 "));
        assertEquals(JsonLexer.LEADING_ZERO + "@2", number("-01"));
        assertEquals(JsonLexer.BAD_NUMBER + "@1", number("-x"));
        assertEquals(JsonLexer.BAD_NUMBER + "@1", number("-"));
        assertEquals(JsonLexer.BAD_NUMBER + "@2", number("1."));
        assertEquals(JsonLexer.BAD_NUMBER + "@3", number("1e+"));
    }

    @Test
    void stringsAreDecodedWithEscapesPairsAndUtf8() {
        assertEquals("0@19 a\"\\/\b\f\n\r\t", string("\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\"x"));
        assertEquals("0@14 \uD83D\uDE00", string("\"\\ud83d\\uDE00\""));
        assertEquals("0@8 h\u00e9\u4e16", string("\"h\u00e9\u4e16\""));
        assertEquals("0@2 ", string("\"\""));
    }

    @Test
    void stringProblemsAreLocated() {
        assertEquals(JsonLexer.STRING_EOF + "@3", string("\"ab"));
        assertEquals(JsonLexer.CONTROL_CHARACTER + "@2", string("\"a\tb\""));
        assertEquals(JsonLexer.ESCAPE_EOF + "@2", string("\"\\"));
        assertEquals(JsonLexer.INVALID_ESCAPE + "@2", string("\"\\x\""));
        assertEquals(JsonLexer.HEX_EOF + "@5", string("\"\\u12"));
        assertEquals(JsonLexer.BAD_HEX + "@5", string("\"\\u12g4\""));
        assertEquals(JsonLexer.LONE_LEADING_SURROGATE + "@7", string("\"\\ud800x\""));
        assertEquals(JsonLexer.LONE_LEADING_SURROGATE + "@13", string("\"\\ud800\\u0041\""));
        assertEquals(JsonLexer.LONE_TRAILING_SURROGATE + "@7", string("\"\\udc00\\udc00\""));
        Lexer l = new Lexer("\"\\u12");
        l.p = 1;
        l.scanString(null);
        assertEquals(3, l.hexStart);
        l = new Lexer("\"\\uDBFF\"");
        l.p = 1;
        assertEquals(JsonLexer.LONE_LEADING_SURROGATE, l.scanString(null));
        assertEquals(0xdbff, l.surrogate);
        l = new Lexer("\"\u00e9\"");
        l.b[1] = (byte) 0xc0; // an overlong lead byte
        l.p = 1;
        assertEquals(JsonLexer.INVALID_UTF8, l.scanString(null));
        assertEquals(1, l.p);
    }
}
