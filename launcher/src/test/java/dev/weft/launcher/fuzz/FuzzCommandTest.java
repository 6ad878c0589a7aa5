package dev.weft.launcher.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line of fuzz.md §1, §8 and §9 and the §11 vector end to end. */
class FuzzCommandTest {

    static final String VECTOR_CONFIG = "{\"net\":\"latency=uniform:0-8000,loss=0.02\",\"invariants\":[\"fifo\",\"dup\"],"
            + "\"workload\":{\"nodes\":3,\"sends\":30}}";

    @TempDir
    Path dir;

    private Path config(String json) {
        Path p = dir.resolve("cfg.json");
        CommandRun.write(p, json);
        return p;
    }

    @Test
    void vector11StdoutAndReportFile() {
        config(VECTOR_CONFIG);
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:20", "--jobs", "1", "--out", "OUT");
        assertEquals(2, r.exit(), r.err());
        assertEquals(CommandRun.withoutDuration(CommandRun.vector11Blocks().get(0)), CommandRun.withoutDuration(r.out()));
        assertEquals(r.out(), CommandRun.read(dir.resolve("OUT/report.txt")));
    }

    @Test
    void vector11FirstReproducerByteForByte() {
        config(VECTOR_CONFIG);
        CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:20", "--jobs", "1", "--out", "OUT");
        Path repro = dir.resolve("OUT/repro-seed0-per-channel-fifo-on-127-0-0-1-100-127-0-0-2-100.weftlog");
        assertEquals(CommandRun.vector11Blocks().get(1), CommandRun.read(repro));
    }

    @Test
    void everyReproducerReplaysIdenticallyWithItsViolation() throws Exception {
        config(VECTOR_CONFIG);
        CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:20", "--jobs", "1", "--out", "OUT");
        int checked = 0;
        try (var files = Files.list(dir.resolve("OUT"))) {
            for (Path repro : files.filter(p -> p.toString().endsWith(".weftlog")).sorted().toList()) {
                ByteArrayOutputStream o = new ByteArrayOutputStream();
                int code;
                try (PrintStream po = new PrintStream(o, true, StandardCharsets.UTF_8);
                     PrintStream pe = new PrintStream(new ByteArrayOutputStream(), true,
                             StandardCharsets.UTF_8)) {
                    code = WeftCli.run(new String[] {"replay", repro.toString(), "--check", "fifo,dup"}, po, pe);
                }
                String text = o.toString(StandardCharsets.UTF_8);
                assertEquals(2, code, text);
                assertTrue(text.startsWith("replay identical: "), text);
                assertTrue(text.endsWith("\n1 invariant violation(s)\n"), text);
                if (repro.getFileName().toString().equals("repro-seed0-per-channel-fifo-on-127-0-0-1-100-127-0-0-2-100.weftlog")) {
                    assertTrue(text.startsWith("replay identical: 9 op(s), stream digest 7c1f0f70a36414fc\n"), text);
                }
                checked++;
            }
        }
        assertEquals(6, checked);
    }

    @Test
    void regressionFileExampleOfSection11() {
        config(VECTOR_CONFIG);
        CommandRun.write(dir.resolve("F"), "[1, 0]");
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:3", "--jobs", "1", "--no-shrink",
                "--regressions", "F", "--out", "OUT");
        assertEquals(2, r.exit());
        assertTrue(r.out().contains("swept     : 5 seed(s) in "), r.out());
        assertTrue(r.out().contains(" (5 failing)\n"), r.out());
        assertTrue(r.out().contains("    seeds  : 3 of 5 tested (first: 0)\n"), r.out());
        assertTrue(r.out().contains("    shrunk : 138 \u2192 138 ops in 0 execution(s)\n"), r.out());
        assertTrue(r.out().endsWith("==========================================================\nregression seeds written to F\n"));
        assertEquals("[\n  0,\n  1,\n  2\n]", CommandRun.read(dir.resolve("F")));
    }

    @Test
    void missingRegressionFileContributesNothingAndIsNotCreatedWithoutViolations() {
        config("{\"net\":\"latency=fixed:100\",\"workload\":{\"nodes\":3,\"sends\":10}}");
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:5", "--regressions", "R", "--out", "o");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("swept     : 5 seed(s) in "));
        assertTrue(r.out().contains("\nNo invariant violations found.\n"));
        assertFalse(Files.exists(dir.resolve("R")));
    }

    @Test
    void oneJobAndFourJobsWriteIdenticalReportsAndReproducers() throws Exception {
        config(VECTOR_CONFIG);
        CommandRun one = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:60", "--jobs", "1", "--out", "A");
        CommandRun four = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:60", "--jobs", "4", "--out", "B");
        assertEquals(CommandRun.withoutDuration(one.out()).replace(" A/", " X/"),
                CommandRun.withoutDuration(four.out()).replace(" B/", " X/"));
        try (var files = Files.list(dir.resolve("A"))) {
            for (Path a : files.toList()) {
                Path b = dir.resolve("B").resolve(a.getFileName());
                if (a.getFileName().toString().equals("report.txt")) continue;
                assertEquals(-1L, Files.mismatch(a, b), a.getFileName().toString());
            }
        }
    }

    @Test
    void aReproducerThatCannotBeWrittenIsLeftOutOfTheReportAndExplainedOnStderr() throws Exception {
        config(VECTOR_CONFIG);
        String name = "repro-seed0-per-channel-fifo-on-127-0-0-1-100-127-0-0-2-100.weftlog";
        Files.createDirectories(dir.resolve("OUT").resolve(name));
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:20", "--jobs", "1", "--out", "OUT");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("weft fuzz: could not write OUT/" + name + ": Is a directory (os error 21)\n"), r.err());
        assertFalse(r.out().contains(name), r.out());
        assertTrue(r.out().contains("    shrunk : 138 \u2192 7 ops in 122 execution(s)\n\n  \u2717 per-channel-fifo on 127.0.0.1:100 \u2192 127.0.0.3:100\n"),
                r.out());
        assertEquals(5, r.out().split("    repro  : ", -1).length - 1);
    }

    @Test
    void helpPrintsUsageOnStdoutAndExitsZero() {
        CommandRun r = CommandRun.of(dir, "--seeds", "1:2", "-h");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("Usage: weft fuzz --config <FILE> [OPTIONS]\n"));
        assertEquals("", r.err());
        assertEquals(0, CommandRun.of(dir, "--help").exit());
    }

    @Test
    void commandLineErrors() {
        assertError("weft fuzz: --config is required\n\nUsage: weft fuzz --config <FILE> [OPTIONS]\n", true);
        assertError("weft fuzz: unexpected argument \"--sed\"\n\nUsage: weft fuzz", true, "--config", "x", "--sed", "1");
        assertError("weft fuzz: --seeds requires a value\n", false, "--config", "x", "--seeds");
        assertError("weft fuzz: --config requires a value\n", false, "--config");
        assertError("weft fuzz: --seeds \"12\": expected START:COUNT\n", false, "--config", "x", "--seeds", "12");
        assertError("weft fuzz: --seeds start \"a\": not a u64\n", false, "--config", "x", "--seeds", "a:1");
        assertError("weft fuzz: --seeds count \"1:2\": not a u64\n", false, "--config", "x", "--seeds", "0:1:2");
        assertError("weft fuzz: --seeds count \"18446744073709551616\": not a u64\n", false,
                "--config", "x", "--seeds", "0:18446744073709551616");
        assertError("weft fuzz: --time-budget \"1.5\": not seconds\n", false, "--config", "x", "--time-budget", "1.5");
        assertError("weft fuzz: --jobs \"-1\": not a count\n", false, "--config", "x", "--jobs", "-1");
    }

    private void assertError(String expectedPrefix, boolean withUsage, String... args) {
        CommandRun r = CommandRun.of(dir, args);
        assertEquals(1, r.exit());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith(expectedPrefix), r.err());
        assertEquals(withUsage, r.err().contains("Usage:"), r.err());
    }

    @Test
    void configErrorsArePrefixedAndExitOne() {
        CommandRun r = CommandRun.of(dir, "--config", "nope.json");
        assertEquals(1, r.exit());
        assertEquals("weft fuzz: config nope.json: No such file or directory (os error 2)\n", r.err());
        config("{\"net\":\"latency=fixed:1\",\"seedcount\":3}");
        r = CommandRun.of(dir, "--config", "cfg.json");
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("weft fuzz: config: unknown field `seedcount`, expected one of `//`, `net`, "
                + "`seed_start`, `seed_count`, `jobs`, `time_budget_secs`, `invariants`, `workload`, `out_dir`, `shrink`, "
                + "`regression_seeds` at line 1 column "), r.err());
    }

    @Test
    void overridesAreNotRevalidated() {
        config("{\"net\":\"latency=fixed:100\",\"workload\":{\"nodes\":2,\"sends\":3}}");
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "5:0", "--jobs", "0", "--out", "o");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("swept     : 0 seed(s) in "), r.out());
    }

    @Test
    void timeBudgetStopsTheSweepAndIsReported() {
        config("{\"net\":\"latency=uniform:0-8000,loss=0.02\",\"workload\":{\"nodes\":3,\"sends\":2000}}");
        CommandRun r = CommandRun.of(dir, "--config", "cfg.json", "--seeds", "0:100000000", "--time-budget", "1",
                "--no-shrink", "--out", "o");
        assertEquals(2, r.exit(), r.err());
        String swept = r.out().lines().filter(l -> l.startsWith("swept")).findFirst().orElseThrow();
        assertTrue(swept.matches("swept     : \\d+ seed\\(s\\) in \\d+\\.\\ds \\(\\d+ failing\\)  \\[time budget hit\\]"), swept);
        assertFalse(swept.contains(" 100000000 seed(s)"), swept);
    }

    @Test
    void badRegressionFileIsAnError() {
        config("{\"net\":\"latency=fixed:100\"}");
        CommandRun.write(dir.resolve("F"), "[1, -2]");
        assertFailsWith("weft fuzz: --regressions F: invalid value: integer `-2`, expected u64",
                "--config", "cfg.json", "--regressions", "F");
    }

    @Test
    void uncreatableOutDirIsAnError() {
        config("{\"net\":\"latency=fixed:100\"}");
        CommandRun.write(dir.resolve("file"), "x");
        assertFailsWith("weft fuzz: cannot create file/sub: ", "--config", "cfg.json", "--out", "file/sub");
    }

    /** {@code weft fuzz ARGS} exits 1 with an error message that starts with {@code errorStart}. */
    private void assertFailsWith(String errorStart, String... args) {
        CommandRun r = CommandRun.of(dir, args);
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith(errorStart), r.err());
    }
}
