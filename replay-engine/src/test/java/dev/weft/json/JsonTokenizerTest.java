package dev.weft.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The tokenizer's accept rules, its located errors, and a seeded mutation sweep (never another exception, and the
 * weft-log layer over the same scanner accepting exactly the same documents).
 */
class JsonTokenizerTest {

    private static List<String> tokens(String doc) throws JsonSyntaxError {
        JsonTokenizer t = JsonTokenizer.of(doc);
        List<String> out = new ArrayList<>();
        for (JsonToken k = t.nextToken(); k != null; k = t.nextToken()) {
            out.add(k.isScalarValue() || k == JsonToken.FIELD_NAME ? k + "(" + t.text() + ")" : k.toString());
        }
        return out;
    }

    private static String error(String doc) {
        return assertThrows(JsonSyntaxError.class, () -> tokens(doc)).getMessage();
    }

    @Test
    void tokensOfAValidDocument() throws Exception {
        assertEquals(List.of("START_OBJECT", "FIELD_NAME(a)", "START_ARRAY", "VALUE_NUMBER_INT(1)", "VALUE_NUMBER_FLOAT(-2.5e3)",
                "VALUE_STRING(x\"\u00e9\uD83D\uDE00/)", "VALUE_TRUE(true)", "VALUE_NULL(null)", "END_ARRAY", "END_OBJECT"),
                tokens(" {\"a\" : [1, -2.5e3, \"x\\\"\u00e9\\ud83d\\ude00\\/\", true, null]}\r\n"));
    }

    @Test
    void referenceRejections() {
        assertEquals("EOF while parsing a value at line 1 column 0", error(""));
        assertEquals("trailing characters at line 1 column 4", error("{} x"));
        assertEquals("Unexpected character ']': trailing comma at line 1 column 4", error("[1,]"));
        assertEquals("Unexpected character '1': invalid number (leading zero) at line 1 column 2", error("01"));
        assertEquals("lone surrogate in string (\\udc00) at line 2 column 7", error("\n\"\\udc00\""));
        assertEquals("control character (\\u0001) found while parsing a string at line 1 column 2", error("\"\u0001\""));
        assertTrue(error("\uFEFF{}").startsWith("Unexpected character byte 0xef"));
    }

    @Test
    void anyDepthWithoutRecursionAndTheLimitOnlyWhereAsked() throws Exception {
        int depth = 200_000;
        JsonTokenizer t = JsonTokenizer.of("[".repeat(depth) + "]".repeat(depth));
        t.nextToken();
        t.skipChildren();
        assertNull(t.nextToken());
        JsonTokenizer limited = JsonTokenizer.of("[".repeat(200) + "]".repeat(200));
        limited.nextToken();
        assertEquals("recursion limit exceeded at line 1 column 129",
                assertThrows(JsonSyntaxError.class, () -> limited.skipChildren(128)).getMessage());
    }

    @Test
    void mutatedDocumentsEndInTokensOrALocatedSyntaxError() {
        byte[][] seeds = {
            "{\"net\":\"latency=uniform:0-8000\",\"workload\":{\"nodes\":3,\"sends\":[1,2.5e-3,true,null]},\"//\":\"\\u00e9\\ud83d\\ude00\"}"
                    .getBytes(StandardCharsets.UTF_8),
            "[{\"a\":[[],{}]},-0.0,\"\u00e9\u2192\"]".getBytes(StandardCharsets.UTF_8)};
        byte[] alphabet = "{}[]\":,\\u0123456789.eE+-tfnrl aA\u0000\n\r\t".getBytes(StandardCharsets.ISO_8859_1);
        SplittableRandom rnd = new SplittableRandom(20261201L);
        int accepted = 0;
        for (int i = 0; i < 100_000; i++) {
            byte[] doc = seeds[rnd.nextInt(seeds.length)].clone();
            for (int m = 1 + rnd.nextInt(3); m > 0; m--) {
                int at = rnd.nextInt(doc.length);
                doc[at] = rnd.nextInt(8) == 0 ? (byte) rnd.nextInt(256) : alphabet[rnd.nextInt(alphabet.length)];
            }
            JsonTokenizer t = new JsonTokenizer(doc);
            boolean duplicateNames = false;
            List<Set<String>> names = new ArrayList<>(); // per open container: its member names so far
            try {
                for (JsonToken k = t.nextToken(); k != null; k = t.nextToken()) {
                    if (k == JsonToken.START_OBJECT || k == JsonToken.START_ARRAY) {
                        names.add(new HashSet<>());
                    } else if (k == JsonToken.END_OBJECT || k == JsonToken.END_ARRAY) {
                        names.remove(names.size() - 1);
                    } else if (k == JsonToken.FIELD_NAME) {
                        duplicateNames |= !names.get(names.size() - 1).add(t.currentName());
                    }
                }
                accepted++;
                // One scanner under both layers: the weft-log cursor accepts the same JSON (it also rejects duplicate names).
                assertEquals(!duplicateNames, cursorAccepts(doc), () -> new String(doc, StandardCharsets.ISO_8859_1));
            } catch (JsonSyntaxError e) {
                assertTrue(e.line() >= 1 && e.column() >= 0 && !e.what().isEmpty() && !e.getMessage().contains("\n"),
                        e.getMessage());
                assertFalse(cursorAccepts(doc), () -> new String(doc, StandardCharsets.ISO_8859_1));
            }
        }
        assertTrue(accepted > 1000 && accepted < 100_000, "accepted " + accepted);
    }

    /** Whether the weft-log layer accepts {@code doc} as one value (any depth) with only white space around it. */
    private static boolean cursorAccepts(byte[] doc) {
        JsonCursor c = new JsonCursor();
        c.start(doc, 0, doc.length);
        try {
            c.ws();
            c.skipIgnored();
            return c.endOfInput() == 0;
        } catch (JsonLineException e) {
            return false;
        }
    }
}
