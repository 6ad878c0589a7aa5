package dev.weft.app;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LaunchOptionsTest {

    @Test
    void parsesTheDocumentedFormWithAndWithoutTheLeadingWord() throws Exception {
        LaunchOptions a = LaunchOptions.parse("workbench", "x.weftlog", "--until", "12", "--screenshot", "out.png", "--size", "800x600");
        LaunchOptions b = LaunchOptions.parse("x.weftlog", "--until=12", "--screenshot=out.png", "--size", "800x600");
        assertEquals(a, b);
        assertEquals(Path.of("x.weftlog"), a.file());
        assertEquals(12, a.untilOp());
        assertEquals(Path.of("out.png"), a.screenshot());
        assertEquals(800, a.width());
        assertEquals(600, a.height());
        LaunchOptions none = LaunchOptions.parse();
        assertNull(none.file());
        assertEquals(1400, none.width());
    }

    @Test
    void everyOptionTakesItsValueAfterAnEqualsSignAsEveryWeftCommandDoes() throws Exception {
        // parsed with picocli (dev.weft.cli), like the other commands: --size=WxH too, which the hand parser refused
        LaunchOptions eq = LaunchOptions.parse("x.weftlog", "--size=800x600", "--compare=b.weftlog");
        assertEquals(LaunchOptions.parse("x.weftlog", "--size", "800x600", "--compare", "b.weftlog"), eq);
        assertEquals("--size 100x100 is out of range (320x240 .. 8192x8192)",
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("x", "--size=100x100"))
                        .getMessage());
        // the words after the first -- are weft run's, options or not
        assertEquals(java.util.List.of("--seed", "1", "--", "x"),
                LaunchOptions.parse("--tool", "run", "--", "--seed", "1", "--", "x").runArgs());
    }

    @Test
    void explainsWhatIsWrongWithABadCommandLine() {
        assertEquals("--until wants an op number (0, 1, 2, ...), not \"-1\"",
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("x", "--until", "-1")).getMessage());
        assertEquals("--size wants WIDTHxHEIGHT in pixels, e.g. 1400x900, not \"big\"",
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("x", "--size", "big")).getMessage());
        assertEquals("--until needs a value", assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("x", "--until")).getMessage());
        assertEquals("unknown option --frobnicate", assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("--frobnicate")).getMessage());
        assertEquals("--screenshot needs a FILE to open", assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("--screenshot", "a.png")).getMessage());
        assertTrue(assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("a", "b")).getMessage().startsWith("only one FILE"));
    }

    @Test
    void compareNamesTheSecondRecordingAndNeedsAFirst() throws Exception {
        assertEquals(Path.of("b.weftlog"), LaunchOptions.parse("a.weftlog", "--compare", "b.weftlog").compare());
        assertEquals(Path.of("b.weftlog"), LaunchOptions.parse("a.weftlog", "--compare=b.weftlog", "--screenshot", "o.png").compare());
        assertEquals(null, LaunchOptions.parse("a.weftlog").compare());
        assertEquals("--compare needs a FILE to compare it with",
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("--compare", "b.weftlog")).getMessage());
        assertTrue(LaunchOptions.USAGE.contains("--compare B"));
    }

    @Test
    void followNeedsTheFileBeingWrittenAndStandsAlone() throws Exception {
        assertTrue(LaunchOptions.parse("live.weftlog", "--follow").follow());
        assertEquals(false, LaunchOptions.parse("live.weftlog").follow());
        assertEquals("--follow needs the FILE that is being written",
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("--follow")).getMessage());
        assertEquals("--follow cannot be combined with --screenshot",
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("a", "--follow", "--screenshot", "o.png")).getMessage());
        assertEquals("--follow cannot be combined with --compare",
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse("a", "--follow", "--compare", "b")).getMessage());
        assertTrue(LaunchOptions.USAGE.contains("--follow"));
    }

    @Test
    void withoutADisplayItSaysSoAndPointsAtTheHeadlessCommands() throws Exception {
        Path log = java.nio.file.Files.createTempFile("ui", ".weftlog");
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
            int code = WorkbenchMain.run(new String[] {"workbench", log.toString()}, new PrintStream(out), new PrintStream(err, true, StandardCharsets.UTF_8), false);
            assertEquals(1, code);
            String text = err.toString(StandardCharsets.UTF_8);
            assertTrue(text.contains("no display available"), text);
            assertTrue(text.contains("weft replay " + log), text);
            assertTrue(text.contains("--screenshot OUT.png"), text);
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        } finally {
            java.nio.file.Files.delete(log);
        }
    }

    @Test
    void aMissingFileOrBadUsageFailsBeforeAnyWindow() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(1, WorkbenchMain.run(new String[] {"/nonexistent/x.weftlog", "--screenshot", "o.png"}, System.out, new PrintStream(err), true));
        assertTrue(err.toString().contains("/nonexistent/x.weftlog: no such file"));
        assertEquals(2, WorkbenchMain.run(new String[] {"--until"}, System.out, new PrintStream(new ByteArrayOutputStream()), true));
    }

    @Test
    void toolNamesAToolWindowAndWhatItOpens() throws Exception {
        LaunchOptions run = LaunchOptions.parse("workbench", "--tool", "run", "--screenshot", "r.png", "--",
                "CHORD_FIX=0", "--seed", "3", "--nodes", "7", "--net", "", "--", "chord_node", "6", "45", "3");
        assertEquals("run", run.tool());
        assertEquals(java.util.List.of("CHORD_FIX=0", "--seed", "3", "--nodes", "7", "--net", "", "--", "chord_node", "6", "45", "3"),
                run.runArgs(), "everything after the first -- is weft run's, its own -- included");
        assertNull(run.file());
        LaunchOptions fuzz = LaunchOptions.parse("--tool=fuzz", "sample.json", "--screenshot", "f.png");
        assertEquals("fuzz", fuzz.tool());
        assertEquals(Path.of("sample.json"), fuzz.file());
        assertEquals("campaign", LaunchOptions.parse("--tool", "campaign").tool(), "without --screenshot the folder is optional");
        assertNull(LaunchOptions.parse("x.weftlog").tool());
        assertTrue(LaunchOptions.USAGE.contains("--tool T"));
    }

    @Test
    void toolRefusesWhatItCannotUse() {
        java.util.function.Function<String[], String> error = args ->
                assertThrows(LaunchOptions.UsageException.class, () -> LaunchOptions.parse(args)).getMessage();
        assertEquals("--tool wants one of run, fuzz, campaign, not \"diff\"", error.apply(new String[] {"--tool", "diff"}));
        assertEquals("--tool fuzz --screenshot needs a fuzz config FILE to run",
                error.apply(new String[] {"--tool", "fuzz", "--screenshot", "f.png"}));
        assertEquals("--tool campaign --screenshot needs a campaign output folder FILE",
                error.apply(new String[] {"--tool", "campaign", "--screenshot", "c.png"}));
        assertEquals("--tool run --screenshot needs the run to show: weft run arguments after --",
                error.apply(new String[] {"--tool", "run", "--screenshot", "r.png"}));
        assertTrue(error.apply(new String[] {"--tool", "run", "prog"}).startsWith("--tool run takes no FILE"));
        assertEquals("arguments after -- are weft run's, for --tool run only",
                error.apply(new String[] {"--tool", "fuzz", "s.json", "--", "--seed", "1"}));
        assertEquals("arguments after -- are weft run's, for --tool run only", error.apply(new String[] {"x.weftlog", "--", "y"}));
        assertEquals("--tool campaign cannot be combined with --compare",
                error.apply(new String[] {"--tool", "campaign", "c", "--compare", "b.weftlog"}));
    }
}
