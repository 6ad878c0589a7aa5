package dev.weft.launcher.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.testsupport.CapturedRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Argument rules and texts of core-and-replay.md §5 (scripts parse them) and the dispatcher's top-level facts. */
class ReplayCommandTest {

    private static CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    @Test
    void untilWithoutValue() {
        CapturedRun r = weft("replay", "x.weftlog", "--until");
        assertEquals(1, r.code());
        assertEquals("weft replay: --until requires an op index\n", r.err());
    }

    @Test
    void untilNotAU64() {
        assertEquals("weft replay: --until \"-1\": not a u64\n", weft("replay", "x", "--until", "-1").err());
        assertEquals("weft replay: --until \"1e3\": not a u64\n", weft("replay", "x", "--until", "1e3").err());
        assertEquals("weft replay: --until \"18446744073709551616\": not a u64\n",
                weft("replay", "x", "--until", "18446744073709551616").err());
    }

    @Test
    void checkRules() {
        assertEquals("weft replay: --check requires a list\n", weft("replay", "x", "--check").err());
        CapturedRun r = weft("replay", "x", "--check", "fifo,bogus");
        assertEquals(1, r.code());
        assertEquals("weft replay: --check: unknown invariant \"bogus\"\n", r.err());
    }

    @Test
    void positionalRules() {
        CapturedRun two = weft("replay", "a", "b");
        assertEquals(1, two.code());
        assertTrue(two.err().startsWith("weft replay: unexpected argument \"b\"\n\nUsage: weft replay <LOG> [OPTIONS]\n"));
        CapturedRun none = weft("replay");
        assertEquals(1, none.code());
        assertTrue(none.err().startsWith("weft replay: no log file given\n\nUsage: weft replay <LOG> [OPTIONS]\n"));
    }

    @Test
    void helpIsNotAnError() {
        CapturedRun r = weft("replay", "--help");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("Usage: weft replay <LOG> [OPTIONS]\n"));
    }

    @Test
    void missingFileIsAnIoErrorNamingThePath() {
        CapturedRun r = weft("replay", "no/such/file.weftlog");
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("weft replay: no/such/file.weftlog: I/O error: "), r.err());
        assertTrue(r.out().isEmpty());
    }

    @Test
    void optionsAndPathInAnyOrder() throws Exception {
        Path vector = Path.of(getClass().getResource("/spec-12-seed3.weftlog").toURI());
        CapturedRun r = weft("replay", "--until", "5", vector.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("replay identical: 6 op(s), stream digest 16177579d6c6ba85 (partial: --until)\n", r.out());
        CapturedRun c = weft("replay", "--check", "all", vector.toString());
        assertEquals(2, c.code());
        assertTrue(c.out().endsWith("===========================================================\n2 invariant violation(s)\n"));
    }

    @Test
    void dispatcherFacts() {
        // The reference's line comes first; our release and the log format version follow it (issue 17).
        assertTrue(weft("--version").out().startsWith("weft 0.0.2\nWeft Workbench "));
        assertTrue(weft("-V").out().startsWith("weft 0.0.2\n"));
        CapturedRun none = weft();
        assertEquals(0, none.code());
        assertTrue(none.out().contains("replay"));
        CapturedRun bad = weft("frobnicate");
        assertEquals(1, bad.code());
        assertTrue(bad.err().startsWith("weft: unknown command 'frobnicate'\n"));
    }
}
