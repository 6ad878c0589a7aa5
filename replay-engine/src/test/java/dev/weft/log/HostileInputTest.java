package dev.weft.log;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hostile inputs (issue: bounded memory, nesting): huge lines are refused at the line limit with a located
 * message naming it, white space of any length is folded so a padded valid log reads like the reference reads
 * it, and ignored members nest to any depth. Inputs are generated while reading, never stored.
 */
class HostileInputTest {

    private static final String HEADER = ConformanceVectorTest.VECTOR.substring(0, ConformanceVectorTest.VECTOR.indexOf('\n') + 1);
    private static final String DIGEST = "d62fd06704cbe952"; // weft-log-v2.md §12

    /** {@code n} bytes of {@code b}, produced as they are read. */
    private static InputStream repeat(byte b, long n) {
        return new InputStream() {
            long left = n;

            @Override
            public int read() {
                return left-- > 0 ? b & 0xff : -1;
            }

            @Override
            public int read(byte[] buf, int off, int len) {
                if (left <= 0) {
                    return -1;
                }
                int k = (int) Math.min(len, left);
                Arrays.fill(buf, off, off + k, b);
                left -= k;
                return k;
            }
        };
    }

    private static InputStream text(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }

    private static InputStream concat(InputStream... parts) {
        return new SequenceInputStream(java.util.Collections.enumeration(List.of(parts)));
    }

    private static String readAll(LogReader r) throws WeftLogException {
        r.verifyAll();
        return Fnv1a.hex16(r.streamDigest());
    }

    @Test
    void endlessLineIsRefusedAtTheDefaultLimitNotWithAnArraySizeError() {
        // weft replay /dev/zero: today's reader doubled its buffer past 2^31 and failed with NegativeArraySizeException.
        WeftLogException e = assertThrows(WeftLogException.class,
                () -> LogReader.open(repeat((byte) 0, Long.MAX_VALUE)).close());
        assertEquals("line 1: malformed record: line longer than the maximum line length of 67108864 bytes (64 MiB; "
                + "white space between tokens not counted); set -Dweft.log.maxLineBytes=<bytes> to raise it", e.getMessage());
        assertEquals(WeftLogException.Kind.MALFORMED, e.kind());
    }

    @Test
    void gzipBombIsRefusedAtTheLineLimit() throws IOException {
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bomb)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 80; i++) {
                gz.write(zeros); // 80 MiB of zeros, about 80 KB compressed
            }
        }
        WeftLogException e = assertThrows(WeftLogException.class,
                () -> LogReader.open(new ByteArrayInputStream(bomb.toByteArray())).close());
        assertTrue(e.getMessage().startsWith("line 1: malformed record: line longer than the maximum line length of "
                + "67108864 bytes"), e.getMessage());
    }

    @Test
    void longRecordLineIsRefusedWithItsLineNumberAndTheLimit() {
        String big = "{\"op\":0,\"x\":\"" + "a".repeat(70_000) + "\"}\n";
        WeftLogException e = assertThrows(WeftLogException.class,
                () -> readAll(LogReader.open(text(HEADER + "\n" + big), 65_536)));
        assertEquals("line 3: malformed record: line longer than the maximum line length of 65536 bytes (64 KiB; "
                + "white space between tokens not counted); set -Dweft.log.maxLineBytes=<bytes> to raise it", e.getMessage());
    }

    @Test
    void whiteSpaceFarBeyondTheLimitIsFoldedAndTheLogReadsIdentical() throws Exception {
        // The vector with 40 MiB of white space spread over a record: between tokens, inside an ignored array and
        // before the line end (with a CR). The limit is 1 MiB, so only folding lets it through.
        String[] lines = ConformanceVectorTest.VECTOR.split("\n");
        String rec = lines[7]; // op 6, a send
        int cut = rec.indexOf(",\"chain\"");
        InputStream in = concat(
                text(String.join("\n", Arrays.copyOf(lines, 7)) + "\n" + rec.substring(0, 1)),
                repeat((byte) ' ', 10 << 20),
                text(rec.substring(1, cut) + ",\"pad\":[\t"),
                repeat((byte) '\t', 10 << 20),
                text("\"  keep  \\\"  spaces \", ["),
                repeat((byte) '\r', 10 << 20),
                text("]]" + rec.substring(cut, rec.length() - 1)),
                repeat((byte) ' ', 10 << 20),
                text("}\r\n" + String.join("\n", Arrays.copyOfRange(lines, 8, lines.length)) + "\n"));
        try (LogReader r = LogReader.open(in, 1 << 20)) {
            assertEquals(DIGEST, readAll(r));
            assertEquals(16, r.recordsRead());
        }
    }

    @Test
    void foldingKeepsTokenBoundaries() {
        // "[1 <spaces> 2]" must stay an error: folding to one space, never to nothing, keeps "1 2" apart.
        InputStream in = concat(text(HEADER + "{\"op\":0,\"x\":[1"), repeat((byte) ' ', 3 << 20), text("2]}\n"));
        WeftLogException e = assertThrows(WeftLogException.class, () -> readAll(LogReader.open(in, 1 << 20)));
        assertEquals(WeftLogException.Kind.MALFORMED, e.kind());
        assertTrue(e.getMessage().startsWith("line 2: malformed record: expected ',' or ']' in an array"), e.getMessage());
    }

    @Test
    void headerWhiteSpaceIsNotFoldedBecauseItsChainIsOverRawBytes() {
        InputStream in = concat(text("{"), repeat((byte) ' ', 3 << 20), text(HEADER.substring(1)));
        WeftLogException e = assertThrows(WeftLogException.class, () -> readAll(LogReader.open(in, 1 << 20)));
        assertTrue(e.getMessage().startsWith("line 1: malformed record: line longer than the maximum line length"), e.getMessage());
    }

    @Test
    void ignoredMembersNestToAnyDepth() throws Exception {
        // serde_json ignores unknown values without a depth limit; today's reader stopped at 128 levels.
        for (int depth : new int[] {129, 1_000, 100_000}) {
            String[] lines = ConformanceVectorTest.VECTOR.split("\n");
            String nested = "[".repeat(depth / 2) + "{\"a\":1,\"b\":" + "{\"c\":".repeat(depth - depth / 2) + "null"
                    + "}".repeat(depth - depth / 2) + "}" + "]".repeat(depth / 2);
            // Unknown members are not part of canon(op, vt, e): the vector's chains still hold.
            lines[3] = lines[3].substring(0, lines[3].length() - 1) + ",\"deep\":" + nested + "}";
            try (LogReader r = LogReader.open(text(String.join("\n", lines) + "\n"))) {
                assertEquals(DIGEST, readAll(r), "depth " + depth);
            }
            String header = lines[0].substring(0, lines[0].length() - 2) + ",\"deep\":" + nested + "}}\n";
            try (LogReader r = LogReader.open(text(header))) {
                assertEquals("0.0.2", r.header().meta().weftVersion(), "depth " + depth);
            }
        }
    }

    @Test
    void duplicateNamesAreStillRejectedDeepInsideIgnoredMembers() {
        String nested = "[".repeat(500) + "{\"a\":1,\"a\":2}" + "]".repeat(500);
        WeftLogException e = assertThrows(WeftLogException.class,
                () -> readAll(LogReader.open(text(HEADER + "{\"x\":" + nested + "}\n"))));
        assertTrue(e.getMessage().startsWith("line 2: malformed record: duplicate member \"a\" in object"), e.getMessage());
    }
}
