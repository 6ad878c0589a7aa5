package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.NativeFixture;
import dev.weft.launcher.run.ShimRuns;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * WEFT_CLOCK_SKEW_NS, a scenario's per-node time_skew: it moves the node's realtime clock and
 * nothing else — examples/chrono's monotonic readings (including an absolute realtime sleep) stay
 * the same, its wall clock moves by the skew.
 */
class ClockSkewTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private static NativeFixture.Result chrono(String skew) {
        Map<String, String> env = ShimRuns.seededEnv("42");
        if (skew != null) {
            env.put("WEFT_CLOCK_SKEW_NS", skew);
        }
        return NativeFixture.exec(List.of(NativeFixture.target().resolve("examples").resolve("chrono").toString()), env);
    }

    private static List<String> monotonic(String out) {
        return out.lines().filter(l -> l.contains("mono=")).map(l -> l.replaceAll(".*(mono=\\S+).*", "$1")).toList();
    }

    @Test
    void skewMovesTheWallClockOnly() {
        var plain = chrono(null);
        var ahead = chrono("3600000000000");
        var behind = chrono("-1000000000");
        assertTrue(plain.stdout().startsWith("boot 2000-06-27 20:48:41 unix 962138921\n"), plain.stdout());
        assertTrue(ahead.stdout().startsWith("boot 2000-06-27 21:48:41 unix 962142521\n"), ahead.stdout());
        assertTrue(behind.stdout().startsWith("boot 2000-06-27 20:48:40 unix 962138920\n"), behind.stdout());
        assertEquals(monotonic(plain.stdout()), monotonic(ahead.stdout()));
        assertEquals(monotonic(plain.stdout()), monotonic(behind.stdout()));
    }

    @Test
    void aMalformedSkewIsIgnoredWithAWarning() {
        var r = chrono("12s");
        assertEquals(chrono(null).stdout(), r.stdout());
        assertTrue(r.stderr().contains("[weft] WARNING: WEFT_CLOCK_SKEW_NS \"12s\": not a signed decimal integer; no skew"),
                r.stderr());
    }
}
