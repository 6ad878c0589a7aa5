package dev.weft.log;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded properties of the line parser: canonical lines take the no-re-serialization fast path and it
 * always hashes exactly canon(...); mutated lines never escape as anything but a syntax error; the text
 * escaping of {@link CanonicalJson#appendString} follows §2.
 */
class ParserPropertyTest {

    private static final String[] INSERTS = {" ", "\t", "\r", "\\u0061", "\\/", ",\"zz\":1", "\"x\":[],", "0", "-", "}",
            "{", "\"", "\\", ":", ",", "\u00e9", "1.5", "e1", "null", "\"send_vt\":0,"};

    /** canon bytes computed by re-serializing the parsed values. */
    private static byte[] canonOf(LineParser p) {
        return CanonicalJson.record(p.op, p.vt, p.event).getBytes(StandardCharsets.UTF_8);
    }

    /** Whenever the parser claims the line is canonical, line[0, prefixEnd) + '}' must equal canon. */
    private static void assertFastPathExact(LineParser p, byte[] line) {
        if (p.canonPrefixEnd >= 0) {
            byte[] prefix = Arrays.copyOf(line, p.canonPrefixEnd + 1);
            prefix[p.canonPrefixEnd] = '}';
            assertArrayEquals(canonOf(p), prefix, () -> new String(line, StandardCharsets.UTF_8));
        }
    }

    @Test
    void writerOutputIsParsedBackAndTakesTheFastPath() throws Exception {
        RandomEvents gen = new RandomEvents(7);
        LineParser p = new LineParser();
        int fast = 0;
        for (int i = 0; i < 20000; i++) {
            Event e = gen.event();
            long op = gen.u64();
            long vt = gen.u64();
            String canon = CanonicalJson.record(op, vt, e);
            String line = canon.substring(0, canon.length() - 1) + ",\"chain\":\"0123456789abcdef\"}";
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            p.record(bytes, 0, bytes.length);
            assertEquals(e, p.event);
            assertEquals(op, p.op);
            assertEquals(vt, p.vt);
            assertFastPathExact(p, bytes);
            if (p.canonPrefixEnd >= 0) {
                fast++;
            }
        }
        // Only strings that need escapes or are non-ASCII leave the fast path.
        assertTrue(fast > 15000, "fast path taken " + fast + " times");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {11, 12, 13, 14})
    void mutatedLinesAreParsedExactlyOrRejectedCleanly(long seed) {
        RandomEvents gen = new RandomEvents(seed);
        SplittableRandom rnd = new SplittableRandom(seed * 31);
        LineParser p = new LineParser();
        int accepted = 0;
        for (int i = 0; i < 30000; i++) {
            Event e = gen.event();
            String canon = CanonicalJson.record(gen.u64(), gen.u64(), e);
            StringBuilder line = new StringBuilder(canon.substring(0, canon.length() - 1) + ",\"chain\":\"0123456789abcdef\"}");
            int edits = 1 + rnd.nextInt(3);
            for (int k = 0; k < edits; k++) {
                int at = rnd.nextInt(line.length() + 1);
                switch (rnd.nextInt(3)) {
                    case 0 -> line.insert(at, INSERTS[rnd.nextInt(INSERTS.length)]);
                    case 1 -> {
                        if (at < line.length()) {
                            line.deleteCharAt(at);
                        }
                    }
                    default -> {
                        String s = line.toString().replace(",\"send_vt\":0", "");
                        line.setLength(0);
                        line.append(s);
                    }
                }
            }
            byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
            if (rnd.nextInt(20) == 0 && bytes.length > 0) {
                bytes[rnd.nextInt(bytes.length)] = (byte) (0x80 + rnd.nextInt(0x80)); // possibly invalid UTF-8
            }
            try {
                p.record(bytes, 0, bytes.length);
                accepted++;
                assertFastPathExact(p, bytes);
            } catch (dev.weft.json.JsonLineException expected) {
                // rejected cleanly; any other exception fails the test
            }
        }
        assertTrue(accepted > 1000, "accepted " + accepted);
    }

    @Test
    void headerParserSurvivesMutations() {
        SplittableRandom rnd = new SplittableRandom(5);
        LineParser p = new LineParser();
        String header = ConformanceVectorTest.VECTOR.substring(0, ConformanceVectorTest.VECTOR.indexOf('\n'));
        for (int i = 0; i < 20000; i++) {
            StringBuilder line = new StringBuilder(header);
            for (int k = 0; k < 1 + rnd.nextInt(3); k++) {
                int at = rnd.nextInt(line.length() + 1);
                if (rnd.nextBoolean()) {
                    line.insert(at, INSERTS[rnd.nextInt(INSERTS.length)]);
                } else if (at < line.length()) {
                    line.deleteCharAt(at);
                }
            }
            byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
            try {
                p.header(bytes, 0, bytes.length, line.toString());
            } catch (dev.weft.json.JsonLineException expected) {
                // fine
            }
        }
    }

    @Test
    void stringEscapingFollowsSection2() {
        StringBuilder sb = new StringBuilder();
        CanonicalJson.appendString(sb, "\"\\/\b\t\n\f\r\u0000\u0001\u001b\u001f \u007f\u00e9\u2028\u2192\uD83D\uDE00");
        assertEquals("\"\\\"\\\\/\\b\\t\\n\\f\\r\\u0000\\u0001\\u001b\\u001f \u007f\u00e9\u2028\u2192\uD83D\uDE00\"", sb.toString());
        for (int c = 0; c < 0x20; c++) {
            StringBuilder one = new StringBuilder();
            CanonicalJson.appendString(one, String.valueOf((char) c));
            String expected = switch (c) {
                case 8 -> "\\b";
                case 9 -> "\\t";
                case 10 -> "\\n";
                case 12 -> "\\f";
                case 13 -> "\\r";
                default -> String.format("\\u%04x", c);
            };
            assertEquals("\"" + expected + "\"", one.toString());
        }
        StringBuilder arrow = new StringBuilder();
        CanonicalJson.appendString(arrow, "\u2192");
        assertArrayEquals(new byte[] {'"', (byte) 0xe2, (byte) 0x86, (byte) 0x92, '"'}, arrow.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void hashRecordEqualsFnvOverTheCanonicalText() {
        RandomEvents gen = new RandomEvents(3);
        for (int i = 0; i < 5000; i++) {
            Event e = gen.event();
            long op = gen.u64();
            long vt = gen.u64();
            long h = gen.u64();
            byte[] text = CanonicalJson.record(op, vt, e).getBytes(StandardCharsets.UTF_8);
            assertEquals(Fnv1a.update(h, text), CanonicalJson.hashRecord(h, op, vt, e));
            StringBuilder sb = new StringBuilder();
            CanonicalJson.appendRecord(sb, op, vt, e);
            StringBuilder ev = new StringBuilder();
            CanonicalJson.appendEvent(ev, e);
            assertEquals("{\"op\":" + Long.toUnsignedString(op) + ",\"vt\":" + Long.toUnsignedString(vt) + ",\"e\":" + ev + "}",
                    sb.toString());
        }
    }

    @Test
    void fnvKnownValues() {
        assertEquals(0xcbf29ce484222325L, Fnv1a.update(Fnv1a.OFFSET_BASIS, new byte[0]));
        assertEquals(0xaf63dc4c8601ec8cL, Fnv1a.update(Fnv1a.OFFSET_BASIS, "a".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(0x85944171f73967e8L, Fnv1a.update(Fnv1a.OFFSET_BASIS, "foobar".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("000000000000000a", Fnv1a.hex16(10));
        assertEquals("ffffffffffffffff", Fnv1a.hex16(-1));
    }
}
