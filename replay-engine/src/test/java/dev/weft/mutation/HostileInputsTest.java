package dev.weft.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.log.LogReader;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * The hostile inputs as regression inputs, generated here at CI size (nesting depth 100,000 at full size;
 * lines and gzip bombs of 16-32 MiB instead of 1 GiB, which bench/hostile-inputs.sh runs). Each must end in the
 * format's own located error or in acceptance, never in another exception (StackOverflowError, OutOfMemoryError,
 * NegativeArraySizeException...).
 */
class HostileInputsTest {

    static final int DEPTH = 100_000;

    private static byte[] nested(String open, String close, int depth) {
        return (open.repeat(depth) + close.repeat(depth)).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Feeds the format; returns its verdict (null accepted, else the located message); fails on anything else. */
    private static String verdict(Format f, byte[] input) {
        try {
            return f.feed(input);
        } catch (Format.Unlocated e) {
            return fail("error names no place: " + e.getMessage());
        } catch (Throwable t) {
            return fail("unexpected " + t, t);
        }
    }

    /** A small recording (reliable network, 3 nodes) written by our writer. */
    private static byte[] sample() {
        return new LogFormat().seed(3);
    }

    /** The first record line of the sample log with {@code inserted} placed right after {@code {"op":0,}. */
    private static byte[] logWithInsertedMember(byte[] inserted) {
        byte[] log = sample();
        int nl = indexOf(log, (byte) '\n', 0);
        int cut = nl + 1 + "{\"op\":0,".length();
        return concat(Arrays.copyOfRange(log, 0, cut), inserted, Arrays.copyOfRange(log, cut, log.length));
    }

    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) if (b[i] == x) return i;
        return -1;
    }

    private static ReplayReport replay(byte[] log) throws Exception {
        try (LogReader reader = LogReader.open(new ByteArrayInputStream(log))) {
            return Replayer.replay(reader, ReplayOptions.PLAIN);
        }
    }

    @Test
    void logRecordWithAnIgnoredMemberNestedAHundredThousandDeep() {
        verdict(new LogFormat(), logWithInsertedMember(concat(utf8("\"x\":"), nested("[", "]", DEPTH), utf8(","))));
        verdict(new LogFormat(), logWithInsertedMember(concat(utf8("\"x\":"), nested("{\"a\":", "}", DEPTH - 1),
                utf8("{}"), utf8(","))));
    }

    @Test
    void whiteSpaceInsideARecordIsNotPartOfItsChainSoSixteenMebibytesOfItReplayIdentical() throws Exception {
        byte[] plain = sample();
        byte[] spaced = logWithInsertedMember(" ".repeat(16 << 20).getBytes(StandardCharsets.US_ASCII));
        String v = verdict(new LogFormat(), spaced);
        if (v == null) assertEquals(replay(plain).digest(), replay(spaced).digest());
    }

    @Test
    void aLongLineOfZeroBytesAndAGzipBombEndInALocatedError() throws Exception {
        byte[] log = sample();
        byte[] header = Arrays.copyOf(log, indexOf(log, (byte) '\n', 0) + 1);
        assertNotNull(verdict(new LogFormat(), concat(header, new byte[16 << 20])));
        ByteArrayOutputStream bomb = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bomb)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 32; i++) gz.write(zeros);
        }
        assertNotNull(verdict(new LogFormat(), bomb.toByteArray()));
    }

    /**
     * Known gap until the scenario parser's rewrite (issue 12 item 2) lands: the Jackson-based parser stops at depth
     * 1000 with a message naming its own internals and no position. Only that exact message is tolerated.
     */
    static final String SCENARIO_DEPTH_GAP = "PARSE: JSON parse error: Document nesting depth (1001) exceeds the maximum "
            + "allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)";

    @Test
    void aScenarioWithAnIgnoredMemberNestedAHundredThousandDeep() throws Exception {
        byte[] doc = concat(utf8("{\"name\":\"deep\",\"seed\":1,\"nodes\":[],\"extra\":"), nested("[", "]", DEPTH), utf8("}"));
        try {
            new ScenarioFormat().feed(doc);
        } catch (Format.Unlocated e) {
            if (!e.getMessage().equals(SCENARIO_DEPTH_GAP)) fail("error names no place: " + e.getMessage());
            System.out.println("hostile inputs: scenario depth 100,000: known gap (issue 12 item 2): " + e.getMessage());
        } catch (Exception | Error e) {
            fail("unexpected " + e, e);
        }
    }

    @Test
    void aFuzzConfigNestedAHundredThousandDeep() {
        byte[] doc = concat(utf8("{\"net\":\"\",\"workload\":"), nested("[", "]", DEPTH), utf8("}"));
        String v = verdict(new FuzzConfigFormat(), doc);
        assertNotNull(v, "workload must be an object");
    }

    @Test
    void aNetSpecOfAMillionSeparators() {
        assertNull(verdict(new NetSpecFormat(), utf8(",".repeat(1_000_000))));
        assertNotNull(verdict(new NetSpecFormat(), utf8("partition=" + "0+".repeat(500_000) + "x")));
    }
}
