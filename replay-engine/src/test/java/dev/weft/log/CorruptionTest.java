package dev.weft.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hand-made edits of the §12 vector: what the reference reader accepts (with the same chains, since records
 * are hashed in canonical form) and what it rejects, with which error, where.
 */
class CorruptionTest {

    private static String[] lines() {
        return ConformanceVectorTest.VECTOR.split("\n");
    }

    private static String join(String[] lines) {
        return String.join("\n", lines) + "\n";
    }

    /** The vector with line {@code lineNo} (1-based) replaced. */
    private static String withLine(int lineNo, String text) {
        String[] l = lines();
        l[lineNo - 1] = text;
        return join(l);
    }

    /** The vector with {@code from} replaced by {@code to} in line {@code lineNo} (1-based). */
    private static String edited(int lineNo, String from, String to) {
        return withLine(lineNo, lines()[lineNo - 1].replace(from, to));
    }

    private static long readAll(byte[] bytes) throws WeftLogException {
        try (LogReader r = LogReader.open(new ByteArrayInputStream(bytes))) {
            return r.verifyAll();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static long readAll(String text) throws WeftLogException {
        return readAll(text.getBytes(StandardCharsets.UTF_8));
    }

    private static WeftLogException rejected(String text) {
        return rejected(text.getBytes(StandardCharsets.UTF_8));
    }

    private static WeftLogException rejected(byte[] bytes) {
        return assertThrows(WeftLogException.class, () -> readAll(bytes));
    }

    private static void assertMalformedAt(long line, String text) {
        WeftLogException e = rejected(text);
        assertEquals(WeftLogException.Kind.MALFORMED, e.kind(), e.getMessage());
        assertEquals(line, e.line(), e.getMessage());
        assertTrue(e.getMessage().startsWith("line " + line + ": malformed record: "), e.getMessage());
    }

    /** Line 3 of the vector (op 1, hello) with its event replaced; the chain stays right if canon is unchanged. */
    private static String hello(String event) {
        return withLine(3, "{\"op\":1,\"vt\":0,\"e\":" + event + ",\"chain\":\"ec84e35e8a1d799f\"}");
    }

    private static String bind(String addr) {
        return withLine(4, "{\"op\":2,\"vt\":0,\"e\":{\"k\":\"bind\",\"conn\":0,\"addr\":" + addr + "},\"chain\":\"c94dde93fd6b6400\"}");
    }

    @Test
    void uppercaseChainIsABrokenChain() {
        String[] l = lines();
        l[4] = l[4].replace("90431941b61667c3", "90431941B61667C3");
        WeftLogException e = rejected(join(l));
        assertEquals(WeftLogException.Kind.CHAIN_BROKEN, e.kind());
        assertEquals(3, e.op());
        assertEquals(5, e.line());
        assertEquals("integrity chain broken at op 3: log truncated or edited", e.getMessage());
    }

    @Test
    void editedValueBreaksTheChainAtThatOp() {
        WeftLogException e = rejected(edited(9, "\"payload\":\"62\"", "\"payload\":\"63\""));
        assertEquals(WeftLogException.Kind.CHAIN_BROKEN, e.kind());
        assertEquals(7, e.op());
    }

    @Test
    void opOutOfOrderIsReportedBeforeTheChain() {
        String[] l = lines();
        String[] swapped = l.clone();
        swapped[5] = l[6];
        swapped[6] = l[5];
        WeftLogException e = rejected(join(swapped));
        assertEquals(WeftLogException.Kind.BAD_OP_ORDER, e.kind());
        assertEquals("op sequence broken: expected 4, got 5", e.getMessage());
        assertEquals(4, e.op());
        assertEquals(6, e.line());

        String[] dup = Arrays.copyOf(l, l.length + 1);
        System.arraycopy(l, 3, dup, 4, l.length - 3);
        WeftLogException d = rejected(join(dup));
        assertEquals("op sequence broken: expected 3, got 2", d.getMessage());
        assertEquals(5, d.line());
    }

    @Test
    void duplicateMembersAreMalformedInEveryObject() {
        assertMalformedAt(2, withLine(2, "{\"op\":0,\"op\":0,\"vt\":0,\"e\":{\"k\":\"connect\",\"conn\":0},\"chain\":\"f8865385873ad877\"}"));
        assertMalformedAt(3, hello("{\"k\":\"hello\",\"conn\":0,\"node\":0,\"conn\":0}"));
        assertMalformedAt(3, hello("{\"k\":\"hello\",\"conn\":0,\"node\":0,\"k\":\"hello\"}"));
        assertMalformedAt(3, hello("{\"conn\":0,\"k\":\"hello\",\"node\":0,\"k\":\"hello\"}"));
        assertMalformedAt(3, hello("{\"k\":\"hello\",\"conn\":0,\"node\":0,\"x\":1,\"x\":2}"));
        assertMalformedAt(4, bind("{\"ip\":2130706433,\"port\":100,\"port\":100}"));
        assertMalformedAt(15, edited(15, "{\"kind\":\"empty\"}", "{\"kind\":\"empty\",\"kind\":\"empty\"}"));
        String header = lines()[0];
        assertMalformedAt(1, withLine(1, header.replace("\"seed\":3,", "\"seed\":3,\"seed\":3,")));
        assertMalformedAt(1, withLine(1, header.replace("{\"weft_version\":\"0.0.2\"}",
                "{\"weft_version\":\"0.0.2\",\"weft_version\":null}")));
        WeftLogException e = rejected(hello("{\"k\":\"hello\",\"conn\":0,\"conn\":0,\"node\":0}"));
        assertTrue(e.getMessage().contains("duplicate member \"conn\""), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "1e2", "1E2", "-0", "-1", "01", "00", "+1", "\"1\"", "true", "null", "0x1", "1.", ".5", "-"})
    void integerFieldsAcceptOnlyPlainUnsignedIntegers(String value) {
        assertMalformedAt(2, withLine(2, "{\"op\":0,\"vt\":" + value + ",\"e\":{\"k\":\"connect\",\"conn\":0},\"chain\":\"f8865385873ad877\"}"));
    }

    @Test
    void integerRangesPerField() throws Exception {
        assertEquals(16, readAll(bind("{\"ip\":2130706433,\"port\":100}")));
        assertMalformedAt(4, bind("{\"ip\":2130706433,\"port\":65536}"));
        assertMalformedAt(4, bind("{\"ip\":4294967296,\"port\":100}"));
        assertMalformedAt(3, hello("{\"k\":\"hello\",\"conn\":0,\"node\":4294967296}"));
        assertMalformedAt(3, hello("{\"k\":\"hello\",\"conn\":18446744073709551616,\"node\":0}"));
        assertMalformedAt(3, hello("{\"k\":\"hello\",\"conn\":99999999999999999999,\"node\":0}"));
        // In range but different values: parses, then the chain (computed over canon) catches it.
        assertEquals(WeftLogException.Kind.CHAIN_BROKEN,
                rejected(bind("{\"ip\":4294967295,\"port\":65535}")).kind());
        assertEquals(WeftLogException.Kind.CHAIN_BROKEN,
                rejected(hello("{\"k\":\"hello\",\"conn\":18446744073709551615,\"node\":4294967295}")).kind());
        LogRecord max = LogReader.parseRecordLine("{\"op\":18446744073709551615,\"vt\":18446744073709551615,"
                + "\"e\":{\"k\":\"hello\",\"conn\":18446744073709551615,\"node\":4294967295},\"chain\":\"0000000000000000\"}", 9);
        assertEquals(-1L, max.op());
        assertEquals(new Event.Hello(-1L, 0xFFFF_FFFFL), max.event());
        assertTrue(CanonicalJson.record(max.op(), max.vt(), max.event())
                .startsWith("{\"op\":18446744073709551615,\"vt\":18446744073709551615,"));
    }

    @Test
    void loneSurrogateEscapesAreMalformedPairsAreDecoded() throws Exception {
        String send = lines()[7];
        assertMalformedAt(8, withLine(8, send.replace("\"payload\":\"61\"", "\"payload\":\"\\ud800\"")));
        assertMalformedAt(8, withLine(8, send.replace("\"payload\":\"61\"", "\"payload\":\"\\udc00\"")));
        assertMalformedAt(8, withLine(8, send.replace("\"payload\":\"61\"", "\"payload\":\"\\ud800\\u0041\"")));
        assertMalformedAt(8, withLine(8, send.replace("\"payload\":\"61\"", "\"payload\":\"\\ud800x\"")));
        assertMalformedAt(8, withLine(8, send.replace("\"payload\":\"61\"", "\"payload\":\"6\\q\"")));
        LogRecord r = LogReader.parseRecordLine("{\"op\":0,\"vt\":0,\"e\":{\"k\":\"violation\",\"invariant\":\"\\u0066ifo\","
                + "\"message\":\"\\ud83d\\ude00 \\u2192 \\/\\\"\\\\\\b\\f\\n\\r\\t\\u001B\\u007f\"},\"chain\":\"x\"}", 2);
        assertEquals(new Event.Violation("fifo", "\uD83D\uDE00 \u2192 /\"\\\b\f\n\r\t\u001b\u007f"), r.event());
        assertEquals("{\"op\":0,\"vt\":0,\"e\":{\"k\":\"violation\",\"invariant\":\"fifo\",\"message\":\"\uD83D\uDE00 \u2192 /\\\"\\\\\\b\\f\\n\\r\\t\\u001b\u007f\"}}",
                CanonicalJson.record(r.op(), r.vt(), r.event()));
    }

    @Test
    void trailingGarbageIsMalformedTrailingWhitespaceIsNot() throws Exception {
        String line2 = lines()[1];
        assertMalformedAt(2, withLine(2, line2 + "x"));
        assertMalformedAt(2, withLine(2, line2 + "}"));
        assertMalformedAt(2, withLine(2, line2 + " {}"));
        assertMalformedAt(2, withLine(2, line2.substring(0, line2.length() - 1)));
        assertMalformedAt(2, withLine(2, " "));
        assertEquals(16, readAll(withLine(2, " \t" + line2 + " \r ")));
    }

    @Test
    void headerVersionAndFormatChecks() {
        String header = lines()[0];
        for (String v : new String[] {"1", "99", "0", "4294967295"}) {
            WeftLogException e = rejected(withLine(1, header.replace("\"version\":2", "\"version\":" + v)));
            assertEquals(WeftLogException.Kind.UNSUPPORTED_VERSION, e.kind());
            assertEquals("unsupported weft-log version " + v + " (this reader supports 2)", e.getMessage());
        }
        assertMalformedAt(1, withLine(1, header.replace("\"version\":2", "\"version\":4294967296")));
        assertMalformedAt(1, withLine(1, header.replace("\"version\":2", "\"version\":2.0")));
        WeftLogException f = rejected(withLine(1, header.replace("\"weft-log\"", "\"weft-logx\"")));
        assertEquals(WeftLogException.Kind.WRONG_FORMAT, f.kind());
        assertEquals("not a weft-log file (format=\"weft-logx\")", f.getMessage());
        WeftLogException q = rejected(withLine(1, header.replace("\"weft-log\"", "\"a\\\"b\\\\c\\td\"")));
        assertEquals("not a weft-log file (format=\"a\\\"b\\\\c\\td\")", q.getMessage());
        // Format is checked before version, and both only after the header parsed.
        assertEquals(WeftLogException.Kind.WRONG_FORMAT,
                rejected(withLine(1, header.replace("\"weft-log\"", "\"x\"").replace("\"version\":2", "\"version\":1"))).kind());
        assertMalformedAt(1, withLine(1, header.replace("\"weft-log\"", "\"x\"").replace(",\"net\":\"latency=uniform:1000-100000\"", "")));
        assertMalformedAt(1, withLine(1, header.replace("{\"weft_version\":\"0.0.2\"}", "null")));
        assertMalformedAt(1, withLine(1, "\uFEFF" + header));
    }

    @Test
    void emptyFileAndHeaderOnly() throws Exception {
        WeftLogException e = rejected("");
        assertEquals("line 1: malformed record: empty file", e.getMessage());
        assertMalformedAt(1, "\n" + ConformanceVectorTest.VECTOR);
        assertEquals(0, readAll(lines()[0] + "\n"));
        assertEquals(0, readAll(lines()[0]));
    }

    @Test
    void lineSplittingCrlfBlankLinesAndNoFinalNewline() throws Exception {
        String v = ConformanceVectorTest.VECTOR;
        assertEquals(16, readAll(v.replace("\n", "\r\n")));
        assertEquals(16, readAll(v.substring(0, v.length() - 1)));
        assertEquals(16, readAll(v.replace("\n", "\n\n") + "\n\r\n"));
        // Blank lines count for line numbers.
        String[] l = lines();
        String withBlanks = l[0] + "\n\n" + l[1] + "\n\n\n" + "{\"op\":1}" + "\n";
        assertMalformedAt(6, withBlanks);
        // A '\r' elsewhere is JSON whitespace; a header with CR before LF is hashed without it.
        assertEquals(16, readAll(v.replaceFirst("\n", "\r\n")));
        assertEquals(WeftLogException.Kind.CHAIN_BROKEN, rejected(v.replaceFirst("\\}\n", "}\r\r\n")).kind());
    }

    @Test
    void invalidUtf8IsAnIoErrorEvenWhereTheJsonIsAlsoBad() {
        String text = withLine(3, "{\"op\":1,\"vt\":0,\"e\":{\"k\":\"violation\",\"invariant\":\"X\",\"message\":\"X\"},\"chain\":\"ec84e35e8a1d799f\"}");
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        int at = text.indexOf("\"X\"}") + 1;
        bytes[at] = (byte) 0xC3; // a lead byte with no continuation
        WeftLogException e = rejected(bytes);
        assertEquals(WeftLogException.Kind.IO, e.kind());
        assertTrue(e.getMessage().startsWith("I/O error: "), e.getMessage());
        assertEquals(3, e.line());

        // Line 3 is bad JSON before its bad byte: still an I/O error (the line is decoded before parsing).
        String oops = withLine(3, "{oops \u00e9");
        byte[] bad = oops.getBytes(StandardCharsets.UTF_8);
        bad[oops.indexOf('\u00e9')] = (byte) 0xFF;
        WeftLogException io = rejected(bad);
        assertEquals(WeftLogException.Kind.IO, io.kind());
        assertEquals(3, io.line());
        // A bad byte on a later line does not hide an earlier malformed line.
        String later = withLine(3, "{oops");
        byte[] bad2 = later.getBytes(StandardCharsets.UTF_8);
        bad2[bad2.length - 2] = (byte) 0xFF;
        assertEquals(WeftLogException.Kind.MALFORMED, rejected(bad2).kind());
        // Overlong and surrogate encodings are invalid too; valid multi-byte text is fine.
        for (byte[] seq : new byte[][] {{(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}}) {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            byte[] patched = new byte[b.length + seq.length - 1];
            System.arraycopy(b, 0, patched, 0, at);
            System.arraycopy(seq, 0, patched, at, seq.length);
            System.arraycopy(b, at + 1, patched, at + seq.length, b.length - at - 1);
            assertEquals(WeftLogException.Kind.IO, rejected(patched).kind());
        }
        byte[] header = lines()[0].replace("0.0.2", "0.0.2\u00e9").getBytes(StandardCharsets.UTF_8);
        header[header.length - 5] = (byte) 0x80; // the lead byte of the e-acute: a stray continuation byte
        assertEquals(WeftLogException.Kind.IO, rejected(header).kind());
    }

    @Test
    void tagsAreCaseSensitiveAndRequired() {
        for (String event : List.of("{\"k\":\"Hello\",\"conn\":0,\"node\":0}", "{\"k\":\"bye\",\"conn\":0,\"node\":0}",
                "{\"conn\":0,\"node\":0}", "{\"k\":1,\"conn\":0,\"node\":0}", "{\"k\":\"hello\",\"node\":0}", "[]")) {
            assertMalformedAt(3, hello(event));
        }
        assertMalformedAt(15, edited(15, "\"empty\"", "\"Empty\""));
        assertMalformedAt(15, edited(15, "{\"kind\":\"empty\"}", "{}"));
        assertMalformedAt(10, edited(10, "\"no_receiver\"", "\"delivered\""));
        assertMalformedAt(15, edited(15, "\"blocking\":false", "\"blocking\":0"));
        assertMalformedAt(15, edited(15, "\"blocking\":false", "\"blocking\":\"false\""));
        assertTrue(rejected(hello("{\"k\":\"hello\",\"node\":0}")).getMessage().contains("missing member \"conn\""));
        assertTrue(rejected(withLine(2, "{\"op\":0,\"vt\":0,\"e\":{\"k\":\"connect\",\"conn\":0}}")).getMessage()
                .contains("missing member \"chain\""));
    }

    @Test
    void canonicalFormIgnoresLayoutOrderEscapesUnknownMembersAndMissingSendVt() throws Exception {
        String[] l = lines();
        l[1] = " { \"chain\" : \"f8865385873ad877\" , \"e\" : { \"conn\" : 0 , \"k\" : \"\\u0063onnect\" } ,\"vt\":0,\"op\":0 } ";
        l[2] = "{\"op\":1,\"zz\":{\"a\":[1,2.5e3,-0,null,true,\"\\ud800\\udc00\"]},\"vt\":0,\"e\":{\"k\":\"hello\",\"conn\":0,\"node\":0,"
                + "\"addr\":\"not an address\",\"payload\":7},\"chain\":\"ec84e35e8a1d799f\"}";
        l[3] = l[3].replace("{\"ip\":2130706433,\"port\":100}", "{\"port\":100,\"x\":null,\"ip\":2130706433}");
        l[7] = l[7].replace(",\"send_vt\":0", "").replace("\"kind\":\"enqueued\",", "\"extra\":[],\"kind\":\"enqueued\",");
        l[9] = l[9].replace("{\"kind\":\"no_receiver\"}", "{\"x\":{},\"kind\":\"no_receiver\"}");
        l[10] = l[10].replace("\"payload\":\"63\"", "\"payload\":\"\\u0036\\u0033\"").replace("{\"kind\":\"delivered\",", "{\"kind\":\"delivered\",\"to_conn\":\"x\",");
        l[15] = l[15].replace("\"k\":\"end\",", "").replace("\"dropped\":0}", "\"dropped\":0,\"k\":\"end\"}");
        l[0] = l[0].replace("{\"weft_version\":\"0.0.2\"}", "{\"weft_version\":\"0.0.2\",\"label\":null,\"note\":1}");
        // The header is hashed raw, so a changed header needs a re-chained log; records keep their canon.
        String text = rechain(l);
        assertEquals(16, readAll(text));
        try (LogReader r = LogReader.open(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)))) {
            r.verifyAll();
            assertEquals("d62fd06704cbe952", Fnv1a.hex16(r.streamDigest()));
            assertEquals(new LogMeta(null, "0.0.2", null), r.header().meta());
        }
        // Record-only edits keep the reference's chain values valid.
        String[] keepHeader = l.clone();
        keepHeader[0] = lines()[0];
        assertEquals(16, readAll(join(keepHeader)));
    }

    /** Recomputes every chain member over the header's raw bytes and each record's canonical form. */
    static String rechain(String[] l) throws WeftLogException {
        long h = Fnv1a.update(Fnv1a.OFFSET_BASIS, l[0].getBytes(StandardCharsets.UTF_8));
        String[] out = l.clone();
        for (int i = 1; i < l.length; i++) {
            LogRecord r = LogReader.parseRecordLine(l[i], i + 1);
            h = CanonicalJson.hashRecord(h, r.op(), r.vt(), r.event());
            out[i] = l[i].replaceFirst("\"chain\" ?: ?\"[0-9a-f]{16}\"", "\"chain\":\"" + Fnv1a.hex16(h) + "\"");
        }
        return join(out);
    }

    @Test
    void unknownValuesMustStillBeValidJson() {
        for (String value : List.of("01", "[1,]", "nul", "\"a\u0001b\"", "{\"a\":1,\"a\":2}", "[".repeat(200) + "]".repeat(200))) {
            assertMalformedAt(3, hello("{\"k\":\"hello\",\"conn\":0,\"node\":0,\"x\":" + value + "}"));
        }
    }

    @Test
    void errorsAreStickyAndNothingFollowsThem() throws Exception {
        String[] l = lines();
        l[5] = l[5].replace("c6a7770876596b0e", "c6a7770876596b0f");
        try (LogReader r = LogReader.open(new ByteArrayInputStream(join(l).getBytes(StandardCharsets.UTF_8)))) {
            for (int i = 0; i < 4; i++) {
                r.next();
            }
            WeftLogException first = assertThrows(WeftLogException.class, r::next);
            assertSame(first, assertThrows(WeftLogException.class, r::next));
            assertEquals(4, r.recordsRead());
        }
    }

    @Test
    void gzipReadsOnlyTheFirstMemberAndRejectsTruncation() throws Exception {
        byte[] gz = gzip(ConformanceVectorTest.VECTOR.getBytes(StandardCharsets.UTF_8));
        assertEquals(16, readAll(gz));
        // A second member (even one holding more records) and plain garbage after the first are ignored.
        byte[] more = gzip(lines()[1].concat("\n").getBytes(StandardCharsets.UTF_8));
        assertEquals(16, readAll(concat(gz, more)));
        assertEquals(16, readAll(concat(gz, "garbage\n".getBytes(StandardCharsets.US_ASCII))));
        for (int cut : new int[] {gz.length - 1, gz.length - 8, gz.length / 2, 11, 3}) {
            WeftLogException e = rejected(Arrays.copyOf(gz, cut));
            assertEquals(WeftLogException.Kind.IO, e.kind(), "cut at " + cut + ": " + e.getMessage());
        }
        byte[] badCrc = gz.clone();
        badCrc[badCrc.length - 8] ^= 1;
        assertEquals(WeftLogException.Kind.IO, rejected(badCrc).kind());
        // The magic decides, not the name: a plain log starting with 1f 8b is not possible, but a gzip
        // stream read from any stream is detected.
        try (LogReader r = LogReader.open(new ByteArrayInputStream(gz))) {
            assertTrue(r.isGzip());
        }
    }

    @Test
    void gzipHeaderWithOptionalFieldsIsRead() throws Exception {
        byte[] plain = gzip(ConformanceVectorTest.VECTOR.getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(new byte[] {0x1f, (byte) 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3});
        out.write(new byte[] {3, 0, 'a', 'b', 'c'}); // FEXTRA
        out.write("vector.weftlog\0".getBytes(StandardCharsets.ISO_8859_1)); // FNAME
        out.write("a comment\0".getBytes(StandardCharsets.ISO_8859_1)); // FCOMMENT
        out.write(new byte[] {0, 0}); // FHCRC (not checked)
        out.write(plain, 10, plain.length - 10);
        assertEquals(16, readAll(out.toByteArray()));
        byte[] badMethod = plain.clone();
        badMethod[2] = 7;
        assertEquals(WeftLogException.Kind.IO, rejected(badMethod).kind());
    }

    @Test
    void missingFileIsAnIoError() {
        WeftLogException e = assertThrows(WeftLogException.class,
                () -> LogReader.open(java.nio.file.Paths.get("target/definitely-missing.weftlog")));
        assertEquals(WeftLogException.Kind.IO, e.kind());
        assertTrue(e.getMessage().startsWith("I/O error: No such file or directory"), e.getMessage());
    }

    static byte[] gzip(byte[] data) throws java.io.IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(data);
        }
        return out.toByteArray();
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
