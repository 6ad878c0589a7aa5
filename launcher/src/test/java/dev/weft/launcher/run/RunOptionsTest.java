package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunOptionsTest {
    @Test
    void parsesEveryOption() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed", "0xDEADBEEF", "--strategy", "rr", "--no-sched", "--trace",
            "--stats", "--shim", "/x/libweft_shim.so", "--fsync-lies", "--enospc-after", "4096", "--torn-writes=500",
            "--", "prog", "--seed", "7"});
        assertEquals(0xDEADBEEFL, o.seed());
        assertEquals("rr", o.strategy());
        assertTrue(o.noSched() && o.trace() && o.stats() && o.fsyncLies());
        assertEquals(Path.of("/x/libweft_shim.so"), o.shim().orElseThrow());
        assertEquals(4096, o.enospcAfter());
        assertEquals(500, o.tornWritesPpm());
        assertEquals(List.of("prog", "--seed", "7"), o.command(), "arguments after -- belong to the program");
    }

    @Test
    void defaultsAreRandomStrategyWithScheduler() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed=1", "prog"});
        assertEquals("random", o.strategy());
        assertFalse(o.noSched() || o.trace() || o.stats());
        assertEquals(List.of("prog"), o.command());
    }

    @Test
    void mistakesSayWhatIsWrong() {
        assertEquals("--seed is required", usage("--", "prog"));
        assertEquals("no program given after --", usage("--seed", "1", "--"));
        assertEquals("--seed \"12x\": invalid decimal seed", usage("--seed", "12x", "--", "prog"));
        assertEquals("--strategy \"fifo\": expected 'random' or 'rr'", usage("--seed", "1", "--strategy", "fifo", "p"));
        assertEquals("unknown option --bogus", usage("--seed", "1", "--bogus", "--", "p"));
        assertEquals("--seed needs a value", usage("--seed"));
        assertEquals("--trace takes no value", usage("--seed", "1", "--trace=yes", "p"));
    }

    private static String usage(String... args) {
        return assertThrows(RunOptions.UsageException.class, () -> RunOptions.parse(args)).getMessage();
    }

    @Test
    void environmentFollowsSpecSection5() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed", "18446744073709551615", "--strategy", "rr", "--stats",
            "--no-sched", "--", "p"});
        Map<String, String> env = new HashMap<>(Map.of("LD_PRELOAD", "/other.so", "WEFT_TRACE", "1", "KEEP", "me"));
        RunCommand.applyEnvironment(o, Path.of("/s/libweft_shim.so"), env);
        assertEquals("/s/libweft_shim.so:/other.so", env.get("LD_PRELOAD"));
        assertEquals("18446744073709551615", env.get("WEFT_SEED"), "seed is decimal unsigned");
        assertEquals("rr", env.get("WEFT_STRATEGY"));
        assertEquals("1", env.get("WEFT_SCHED_STATS"));
        assertEquals("0", env.get("WEFT_SCHED"));
        assertFalse(env.containsKey("WEFT_TRACE"), "a stale WEFT_TRACE from the caller is cleared");
        assertEquals("me", env.get("KEEP"));
    }

    @Test
    void isolationAndStrictFlags() throws Exception {
        RunOptions plain = RunOptions.parse(new String[] {"--seed", "1", "p"});
        assertFalse(plain.strict() || plain.keepAslr() || plain.hostPids(), "all off by default");
        RunOptions all = RunOptions.parse(new String[] {"--seed", "1", "--strict", "--keep-aslr", "--host-pids", "--", "p"});
        assertTrue(all.strict() && all.keepAslr() && all.hostPids());
        assertFalse(plain.rdtsc(), "--rdtsc is opt-in");
        RunOptions rdtsc = RunOptions.parse(new String[] {"--seed", "1", "--rdtsc", "--", "p"});
        assertTrue(rdtsc.rdtsc());
        Map<String, String> env = new HashMap<>(Map.of("WEFT_RDTSC", "1", "WEFT_PROC", "stale"));
        RunCommand.applyEnvironment(plain, Path.of("/s/libweft_shim.so"), env);
        assertFalse(env.containsKey("WEFT_RDTSC") || env.containsKey("WEFT_PROC"), "stale switches are cleared: " + env);
        RunCommand.applyEnvironment(rdtsc, Path.of("/s/libweft_shim.so"), env);
        assertEquals("1", env.get("WEFT_RDTSC"));
        assertEquals("--strict takes no value", usage("--seed", "1", "--strict=yes", "p"));
    }

    @Test
    void opensslMaskIsSetButACallersMaskIsKept() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed", "1", "p"});
        Map<String, String> env = new HashMap<>();
        RunCommand.applyEnvironment(o, Path.of("/s.so"), env);
        assertEquals("~0x4000000000000000:~0x40000", env.get("OPENSSL_ia32cap"));
        Map<String, String> mine = new HashMap<>(Map.of("OPENSSL_ia32cap", "~0x200000200000000"));
        RunCommand.applyEnvironment(o, Path.of("/s.so"), mine);
        assertEquals("~0x200000200000000", mine.get("OPENSSL_ia32cap"));
    }

    @Test
    void usageErrorsExitWithTwoAndNoStackTrace() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = RunCommand.run(new String[] {"--seed", "nope", "--", "true"}, Map.of(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(RunCommand.USAGE_ERROR, rc);
        String text = err.toString(StandardCharsets.UTF_8);
        assertTrue(text.startsWith("weft run: --seed \"nope\": invalid decimal seed\nusage: weft run"), text);
    }

    @Test
    void missingShimIsReported() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = RunCommand.run(new String[] {"--seed", "1", "--shim", "/no/such/libweft_shim.so", "--", "true"}, Map.of(),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(RunCommand.USAGE_ERROR, rc);
        assertEquals("weft run: --shim /no/such/libweft_shim.so: no such file\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void networkAndScenarioOptions() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed", "4", "--net", "latency=fixed:5", "--nodes", "3",
            "--record", "x.weftlog", "--watchdog", "9", "--listen", "7777", "--", "p"});
        assertEquals(new RunOptions.Cluster("latency=fixed:5", 3, Path.of("x.weftlog"), 9,
                new java.net.InetSocketAddress("127.0.0.1", 7777), null), o.cluster());
        assertEquals(1, RunOptions.parse(new String[] {"--seed", "4", "--net", "", "p"}).cluster().nodes(),
                "one node (threads as nodes) by default");
        assertEquals(null, RunOptions.parse(new String[] {"--seed", "4", "p"}).cluster(), "no --net: no broker");
        RunOptions s = RunOptions.parse(new String[] {"--record", "r.weftlog", "scen.json"});
        assertEquals(Path.of("scen.json"), s.cluster().scenario());
        assertEquals("--net: latency \"x\": unknown kind \"x\"", usage("--seed", "1", "--net", "latency=x", "p"));
        assertEquals("--record needs --net (a simulated network)", usage("--seed", "1", "--record", "l", "p"));
        assertEquals("--nodes 0: expected 1 to 1024", usage("--seed", "1", "--net", "", "--nodes", "0", "p"));
        assertEquals("--nodes 1025: expected 1 to 1024", usage("--seed", "1", "--net", "", "--nodes", "1025", "p"));
        assertEquals("--listen \"host:\": expected PORT or HOST:PORT", usage("--seed", "1", "--net", "",
                "--listen", "host:", "p"));
        assertEquals(null, s.cluster().scenarioSeed(), "the scenario's own seed");
        // a campaign runs one scenario under many seeds: --seed replaces the scenario's, and --plan is allowed
        RunOptions seeded = RunOptions.parse(new String[] {"--seed", "7", "--plan", "p.json", "s.json"});
        assertEquals(7L, seeded.cluster().scenarioSeed());
        assertEquals(Path.of("p.json"), seeded.cluster().plan());
    }

    @Test
    void runEndAndNodeEnvironmentOptions() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed", "1", "--net", "", "--nodes", "4", "--end-when-exited",
            "3,1", "--grace", "5", "--env", "A=1", "--env", "B=x=y", "--pass-env", "HOME,USER", "--dry-run", "--", "p"});
        assertEquals(java.util.List.of(1L, 3L), o.cluster().end().nodes(), "ascending");
        assertEquals(5, o.cluster().end().graceNs());
        assertEquals(new java.util.TreeMap<>(Map.of("A", "1", "B", "x=y")), o.cluster().nodeEnv().set());
        assertEquals(new java.util.TreeSet<>(java.util.List.of("HOME", "USER")), o.cluster().nodeEnv().pass());
        assertTrue(o.cluster().nodeEnv().dryRun());
        assertEquals(RunOptions.RunEnd.DEFAULT_GRACE_NS, RunOptions.parse(new String[] {"--seed", "1", "--net", "",
            "--end-when-exited", "0", "--", "p"}).cluster().end().graceNs());
        assertEquals("--end-when-exited 4: no such node (--nodes 4 runs nodes 0 to 3)", usage("--seed", "1", "--net", "",
                "--nodes", "4", "--end-when-exited", "4", "--", "p"));
        assertEquals("--end-when-exited \"1,,2\": expected node ids separated by commas (e.g. 0,2)", usage("--seed", "1",
                "--net", "", "--nodes", "4", "--end-when-exited", "1,,2", "--", "p"));
        assertEquals("--grace needs --end-when-exited (or a scenario with \"end_when_exited\")", usage("--seed", "1",
                "--net", "", "--grace", "5", "--", "p"));
        assertEquals("--end-when-exited needs --net (a simulated network) or a scenario", usage("--seed", "1",
                "--end-when-exited", "0", "--", "p"));
        assertEquals("--env \"A\": expected NAME=VALUE", usage("--seed", "1", "--net", "", "--env", "A", "--", "p"));
        assertEquals("--dry-run needs --net (a simulated network) or a scenario", usage("--seed", "1", "--dry-run", "p"));
    }
}
