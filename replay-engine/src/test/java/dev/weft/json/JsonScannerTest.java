package dev.weft.json;

import static dev.weft.json.JsonScanner.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The one scanner under both layers: each primitive's result or problem code and the byte it is located at, which
 * the layers word in their own texts.
 */
class JsonScannerTest {

    private static final class Scanner extends JsonScanner {
        Scanner(String text) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            input(bytes, 0, bytes.length);
        }
    }

    /** Runs one primitive at the start of {@code s} (a string from just after its opening quote). */
    private static int run(String primitive, Scanner s) {
        return switch (primitive) {
            case "number" -> s.scanNumber();
            case "string" -> {
                s.p = 1;
                yield s.scanString(null);
            }
            case "value" -> s.scanValue(null);
            case "afterItem" -> s.afterItem((byte) '}');
            case "colon" -> s.colon();
            default -> s.endOfInput();
        };
    }

    @Test
    void eachPrimitiveEndsAtItsResultOrAtTheOffendingByte() {
        Object[][] cases = {
                {"number", "-12,", NUMBER_INT + "@3"},
                {"number", "0]", NUMBER_INT + "@1"},
                {"number", "1.5e+10", NUMBER_FLOAT + "@7"},
                {"number", "2E-1 ", NUMBER_FLOAT + "@4"},
                {"number", "-01", LEADING_ZERO + "@2"},
                {"number", "-x", BAD_NUMBER + "@1"},
                {"number", "-", BAD_NUMBER + "@1"},
                {"number", "1.", BAD_NUMBER + "@2"},
                {"number", "1e+", BAD_NUMBER + "@3"},
                {"string", "\"ab", STRING_EOF + "@3"},
                {"string", "\"a\tb\"", CONTROL_CHARACTER + "@2"},
                {"string", "\"\\", ESCAPE_EOF + "@2"},
                {"string", "\"\\x\"", INVALID_ESCAPE + "@2"},
                {"string", "\"\\u12", HEX_EOF + "@5"},
                {"string", "\"\\u12g4\"", BAD_HEX + "@5"},
                {"string", "\"\\ud800x\"", LONE_LEADING_SURROGATE + "@7"},
                {"string", "\"\\ud800\\u0041\"", LONE_LEADING_SURROGATE + "@13"},
                {"string", "\"\\udc00\\udc00\"", LONE_TRAILING_SURROGATE + "@7"},
                {"value", "{}", OBJECT + "@0"},
                {"value", "[1]", ARRAY + "@0"},
                {"value", "\"x\",", STRING + "@3"},
                {"value", "true]", TRUE + "@4"},
                {"value", "false", FALSE + "@5"},
                {"value", "null", NULL + "@4"},
                {"value", "-1.5", NUMBER_FLOAT + "@4"},
                {"value", "nul", BAD_LITERAL + "@3"},
                {"value", "tru e", BAD_LITERAL + "@3"},
                {"value", "", EXPECTED_VALUE + "@0"},
                {"value", "}", EXPECTED_VALUE + "@0"},
                {"afterItem", " , }", TRAILING_COMMA + "@3"},
                {"afterItem", " ]", EXPECTED_SEPARATOR + "@1"},
                {"afterItem", "", EXPECTED_SEPARATOR + "@0"},
                {"afterItem", "\t}", CLOSED + "@2"},
                {"afterItem", ",\"", ITEM + "@1"},
                {"colon", " :1", "0@2"},
                {"colon", " =1", EXPECTED_COLON + "@1"},
                {"endOfInput", " \r\n", "0@3"},
                {"endOfInput", " x", TRAILING_CHARACTERS + "@1"}};
        for (Object[] c : cases) {
            Scanner s = new Scanner((String) c[1]);
            int code = run((String) c[0], s);
            assertEquals(c[2], code + "@" + s.p, c[0] + " of " + c[1]);
        }
    }

    @Test
    void stringsAreDecodedWithEscapesPairsAndUtf8() {
        String[][] cases = {
                {"\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\"x", "0@19 a\"\\/\b\f\n\r\t"},
                {"\"\\ud83d\\uDE00\"", "0@14 \uD83D\uDE00"},
                {"\"h\u00e9\u4e16\"", "0@8 h\u00e9\u4e16"},
                {"\"\"", "0@2 "}};
        for (String[] c : cases) {
            Scanner s = new Scanner(c[0]);
            s.p = 1;
            StringBuilder out = new StringBuilder();
            int code = s.scanString(out);
            assertEquals(c[1], code + "@" + s.p + " " + out, "input " + c[0]);
        }
    }

    @Test
    void stringProblemsCarryWhatTheLayersQuote() {
        Scanner s = new Scanner("\"\\u12");
        s.p = 1;
        s.scanString(null);
        assertEquals(3, s.hexStart);
        s = new Scanner("\"\\uDBFF\"");
        s.p = 1;
        assertEquals(LONE_LEADING_SURROGATE, s.scanString(null));
        assertEquals(0xdbff, s.surrogate);
        s = new Scanner("\"\u00e9\"");
        s.b[1] = (byte) 0xc0; // an overlong lead byte
        s.p = 1;
        assertEquals(INVALID_UTF8, s.scanString(null));
        assertEquals(1, s.p);
        s = new Scanner(" fals");
        s.p = 1;
        assertEquals(BAD_LITERAL, s.scanValue(null));
        assertEquals(1, s.valueStart);
    }

    /** {@link JsonScanner#nextItem} and where it leaves p: "code@p ". */
    private static String nextItem(Scanner s) {
        return s.nextItem() + "@" + s.p + " ";
    }

    @Test
    void containersAreWalkedItemByItemWithLinesCounted() {
        Scanner s = new Scanner("[ {\"a\" :1 ,\n \"b\":[]}, 2 ]");
        s.open(); // the caller opens each container the scanner reports
        String walk = nextItem(s); // ITEM at {
        s.open();
        walk += nextItem(s); // ITEM at "a"
        s.p += 3;
        walk += s.colon() + "@" + s.p + " ";
        s.ws();
        s.scanValue(null);
        walk += nextItem(s) + s.line + ":" + s.column() + " "; // ITEM at "b", on line 2
        s.p += 4;
        s.open();
        walk += nextItem(s) + nextItem(s) + nextItem(s); // CLOSED (the []), CLOSED (the {}), ITEM at 2
        s.scanValue(null);
        walk += nextItem(s) + s.depth + " " + s.endOfInput() + " " + s.compact; // CLOSED (the outer [])
        assertEquals("0@2 0@3 0@8 0@13 2:2 1@19 1@20 0@22 1@25 0 0 false", walk);
    }
}
