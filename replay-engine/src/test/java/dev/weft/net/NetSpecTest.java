package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The grammar, number syntax and exact error texts of net-and-fault-model.md §1. */
class NetSpecTest {

    private static String error(String spec) {
        return assertThrows(NetSpecException.class, () -> NetSpec.parse(spec)).getMessage();
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '`', value = {
            "latency=uniform:5; latency \"uniform:5\": needs lo-hi",
            "latency=fixed; latency \"fixed\": \"\" is not an integer (nanoseconds)",
            "latency=FIXED:5; latency \"FIXED:5\": unknown kind \"FIXED\"",
            "loss=nan; loss \"nan\" is not a probability in [0,1]",
            "foo; network clause \"foo\" is not key=value",
            "x=1; unknown network key \"x\"",
            "latency=uniform:5-1; latency \"uniform:5-1\": hi<lo (1<5)",
            "lat=fixed :5; latency \"fixed :5\": unknown kind \"fixed \"",
            "latency=fixed: x ; latency \"fixed: x\": \" x\" is not an integer (nanoseconds)",
            "latency=uniform: 1 -x; latency \"uniform: 1 -x\": \"x\" is not an integer (nanoseconds)",
            "latency=exp:-0; latency \"exp:-0\": \"-0\" is not an integer (nanoseconds)",
            "loss= 1.5 ; loss \" 1.5\" is not a probability in [0,1]",
            "loss=inf; loss \"inf\" is not a probability in [0,1]",
            "loss=-0.1; loss \"-0.1\" is not a probability in [0,1]",
            "loss=0.5d; loss \"0.5d\" is not a probability in [0,1]",
            "bw= 1e3; bw \" 1e3\" is not an integer",
            "bw=18446744073709551616; bw \"18446744073709551616\" is not an integer",
            "partition=0|a+1; partition: bad node id \"a\"",
            "partition=4294967296; partition: bad node id \"4294967296\"",
            "  Latency =fixed:1; unknown network key \"Latency\"",
            "latency=fixed:1,,oops ; network clause \"oops\" is not key=value",
            "=5; unknown network key \"\"",
    })
    void exactErrorTexts(String spec, String message) {
        assertEquals(message, error(spec));
    }

    @Test
    void errorKinds() throws Exception {
        NetSpecException e = assertThrows(NetSpecException.class, () -> NetSpec.parse("bw=x"));
        assertEquals(NetSpecException.Kind.INVALID_BANDWIDTH, e.kind());
        assertEquals(NetSpecException.Kind.INVALID_PARTITION,
                assertThrows(NetSpecException.class, () -> NetSpec.parse("part=-1")).kind());
    }

    @Test
    void debugQuotingInsideErrors() {
        assertEquals("network clause \"a\\\"b\\\\c\" is not key=value", error("a\"b\\c"));
        assertEquals("unknown network key \"k\\u{0}x\"".replace("\\u{0}", "\\0"), error("k\0x=1"));
        assertEquals("unknown network key \"\\u{1b}é\\u{200b}\"", error("\u001bé\u200b=1"));
        // \t inside the key survives because only the ends are trimmed
        assertEquals("unknown network key \"a\\tb\"", error("a\tb=1"));
    }

    @Test
    void emptySpecIsReliable() throws Exception {
        assertEquals(NetSpec.RELIABLE, NetSpec.parse(""));
        assertEquals(NetSpec.RELIABLE, NetSpec.parse(" , ,\u3000,"));
        assertEquals(NetSpec.RELIABLE, NetSpec.parse("partition=|+|"));
        assertEquals(NetSpec.RELIABLE, NetSpec.parse("partition="));
    }

    @Test
    void fullSpecParses() throws Exception {
        NetSpec s = NetSpec.parse(" lat = unif: 10 - 20 ,\u00a0loss=+.5e-1, bandwidth=+007, part= 1 + 2 |3| |4+ ");
        assertEquals(new Latency.Uniform(10, 20), s.latency());
        assertEquals(0.05, s.loss());
        assertEquals(7, s.bandwidth());
        assertEquals(List.of(List.of(1L, 2L), List.of(3L), List.of(4L)), s.partition());
        assertEquals(10, s.minDelay());
    }

    @Test
    void latencyKindsAndAliases() throws Exception {
        assertEquals(new Latency.Fixed(5), NetSpec.parse("latency=const:5").latency());
        assertEquals(new Latency.Fixed(-1L), NetSpec.parse("latency=fixed:18446744073709551615").latency());
        assertEquals(new Latency.Exponential(0), NetSpec.parse("latency=exponential:0").latency());
        assertEquals(new Latency.Exponential(5000), NetSpec.parse("latency=exp: 5000 ").latency());
        assertEquals(new Latency.Uniform(7, 7), NetSpec.parse("latency=uniform:7-7").latency());
        assertEquals(0, NetSpec.parse("latency=exp:9").minDelay());
        assertEquals(3, NetSpec.parse("latency=fixed:3").minDelay());
    }

    @Test
    void laterClausesReplaceEarlierOnes() throws Exception {
        NetSpec s = NetSpec.parse("loss=0.5,latency=fixed:1,loss=0.25,latency=exp:3,part=1|2,part=");
        assertEquals(0.25, s.loss());
        assertEquals(new Latency.Exponential(3), s.latency());
        assertEquals(List.of(), s.partition());
    }

    @Test
    void firstErrorAborts() {
        assertEquals("unknown network key \"a\"", error("a=1,b"));
    }

    @ParameterizedTest
    @ValueSource(strings = {".5", "1.", "0.", "+0.5", "1.e-5", "0.5e-2", "00.5", "0", "1", "1.0", "1E0", "0e99999999999999999999",
            "-0", "-0.0", "0.0000000000000000000000000000000000000001", "1e-400"})
    void lossAccepted(String v) throws Exception {
        double expected = Double.parseDouble(v);
        assertEquals(expected, NetSpec.parse("loss=" + v).loss());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x1", "1_0", "e5", "1e", "0.5d", "0x1p-1", ".", "+", "-", "", "1e+", "0.5f", "1 0",
            "١", "NaN", "-inf", "infinity", "2", "1.0000000000000002", "1e400"})
    void lossRejected(String v) {
        assertEquals(NetSpecException.Kind.INVALID_LOSS,
                assertThrows(NetSpecException.class, () -> NetSpec.parse("loss=" + v)).kind());
    }

    @ParameterizedTest
    @ValueSource(strings = {"+5", "005", "0", "18446744073709551615"})
    void bandwidthAccepted(String v) throws Exception {
        assertEquals(Long.parseUnsignedLong(v.replace("+", "")), NetSpec.parse("bw=" + v).bandwidth());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-0", "-1", "++1", "+", "1_000", "1 000", "١٢", "0x10", "1.0", "18446744073709551616"})
    void bandwidthRejected(String v) {
        assertEquals(NetSpecException.Kind.INVALID_BANDWIDTH,
                assertThrows(NetSpecException.class, () -> NetSpec.parse("bw=" + v)).kind());
    }
}
