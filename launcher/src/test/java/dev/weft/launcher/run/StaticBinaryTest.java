package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Statically linked targets run under weft_super (docs/shim.md "Static binaries"): their clock
 * (system calls and the vDSO), sleeps, getrandom and getcpu come from the seed, with the shim's
 * rules. tests/static_probe.c is linked with -static by the Makefile; busybox is Debian's
 * busybox-static. Without the supervisor every one of these printed real times and bytes.
 */
class StaticBinaryTest {
    /** 2000-01-01 and 2001-01-01 in nanoseconds: the shim's realtime base lies in between. */
    private static final long Y2000_NS = 946_684_800_000_000_000L;
    private static final long Y2001_NS = 978_307_200_000_000_000L;

    private Path probe;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
        probe = NativeFixture.testProgram("static_probe");
        assumeTrue(Files.isRegularFile(probe), "skipped: static_probe not built (needs libc.a from libc6-dev)");
        assumeTrue(Files.isExecutable(NativeFixture.target().resolve(ShimLocator.SUPERVISOR)),
                "skipped: weft_super not built");
    }

    private static Map<String, String> lines(String stdout) {
        return stdout.lines().map(l -> l.split(" ", 2))
                .collect(Collectors.toMap(p -> p[0], p -> p.length > 1 ? p[1] : ""));
    }

    @Test
    void sameSeedGivesTheSameValuesRunAfterRun() {
        var first = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "42", "--", probe.toString()));
        for (int i = 0; i < 2; i++) {
            assertEquals(first.stdout(), NativeFixture.weftRun("--seed", "42", "--", probe.toString()).stdout());
        }
        Map<String, String> v = lines(first.stdout());
        long realtime = Long.parseLong(v.get("realtime"));
        assertTrue(realtime > Y2000_NS && realtime < Y2001_NS, "virtual 2000 epoch: " + realtime);
        assertEquals("2000", v.get("monotonic"), "the second reading of the run: 2 µs");
        assertEquals(realtime / 1_000_000_000L, Long.parseLong(v.get("time")));
        assertEquals("1500001000", v.get("slept"), "a 1.5 s nanosleep advances virtual time, plus one reading");
        assertEquals("0", v.get("cpu"));
        assertEquals("150 150", v.get("times"), "1.5 s of virtual time, all of it this image's CPU time");
        assertNotEquals(v.get("getrandom"), v.get("raw-getrandom"));
        assertNotEquals(v.get("getrandom"), v.get("child-getrandom"), "a forked child draws its own stream");
        assertTrue(first.stderr().startsWith("weft run: note: " + probe + " is statically linked; it runs under"
                + " weft_super: "), first.stderr());
        assertEquals(1, first.stderr().lines().count(), first.stderr());
    }

    @Test
    void differentSeedsGiveDifferentValues() {
        Map<String, String> a = lines(NativeFixture.weftRun("--seed", "1", "--", probe.toString()).stdout());
        Map<String, String> b = lines(NativeFixture.weftRun("--seed", "2", "--", probe.toString()).stdout());
        for (String key : List.of("getrandom", "raw-getrandom", "realtime", "time", "child-getrandom")) {
            assertNotEquals(a.get(key), b.get(key), key);
        }
    }

    /** One engine: the same program built dynamically and run under the shim reads the same clock and child stream. */
    @Test
    void agreesWithTheShimOnADynamicBuildOfTheSameProgram() throws Exception {
        Path dynamic = NativeFixture.compileForTest("shim-native/tests/static_probe.c");
        Map<String, String> s = lines(NativeFixture.weftRun("--seed", "7", "--", probe.toString()).stdout());
        Map<String, String> d = lines(ShimRuns.succeeded(NativeFixture.weftRun("--seed", "7", "--", dynamic.toString()))
                .stdout());
        for (String key : List.of("realtime", "monotonic", "gettimeofday", "time", "slept", "at-random", "times",
                "rusage", "child-getrandom", "child-monotonic", "parent-monotonic")) {
            assertEquals(d.get(key), s.get(key), key);
        }
        // static glibc's malloc draws 8 bytes (its tcache key) before main; in a dynamic build that raw call escapes
        assertTrue(d.get("getrandom").endsWith(s.get("getrandom").substring(0, 16)), d + " / " + s);
    }

    /** As under the shim: a new image keeps the clock and starts its streams afresh; a failed exec changes nothing. */
    @Test
    void aNewImageContinuesTheClockAndRestartsItsStreams() {
        Map<String, String> v = lines(ShimRuns.succeeded(NativeFixture.weftRun("--seed", "9", "--", probe.toString(),
                "exec")).stdout());
        assertEquals(v.get("image1"), v.get("image2"));
        assertNotEquals(v.get("image1"), v.get("after-failed-exec"));
        assertEquals(Long.parseLong(v.get("image1-monotonic")) + 1000, Long.parseLong(v.get("image2-monotonic")));
    }

    @Test
    void statsCountWhatTheSupervisorAnswered() {
        var r = NativeFixture.weftRun("--seed", "3", "--stats", "--", probe.toString());
        String line = r.stderr().lines().filter(l -> l.startsWith("[weft] supervisor:")).findFirst().orElse("");
        assertTrue(line.startsWith("[weft] supervisor: answered getrandom 4, clock 8, cputime 2, sleep 1, getcpu 1,"
                + " rseq 1 (1 as errors), random-device opens 0, stat "), r.stderr());
        assertTrue(line.contains("vDSO rewritten in 1 image(s), AT_RANDOM seeded in 1,"), line);
    }

    private static Path busybox() {
        Path b = Path.of("/bin/busybox");
        assumeTrue(Files.isExecutable(b) && BinaryInspector.inspect(b).staticLinked(),
                "skipped: no static /bin/busybox (Debian busybox-static)");
        return b;
    }

    @Test
    void busyboxDateMktempSleepUrandomAndFileTimesAreSeeded(@TempDir Path dir) throws Exception {
        String script = "date +%s; mktemp -u; sleep 2; date +%s; busybox date +%s; sleep 1 & wait; date +%s;"
                + " head -c 16 /dev/urandom | od -An -tx1; cd \"$1\" && rm -f fresh && echo x > fresh &&"
                + " stat -c %Y fresh /bin/busybox";
        List<String> outs = new ArrayList<>();
        for (String seed : List.of("5", "5", "5", "6")) {
            outs.add(ShimRuns.succeeded(NativeFixture.weftRun("--seed", seed, "--", busybox().toString(), "sh", "-c",
                    script, "sh", dir.toString())).stdout());
        }
        assertEquals(outs.get(0), outs.get(1));
        assertEquals(outs.get(0), outs.get(2));
        assertNotEquals(outs.get(0), outs.get(3));
        List<String> l = outs.get(0).lines().toList();
        long t0 = Long.parseLong(l.get(0));
        assertTrue(t0 > Y2000_NS / 1_000_000_000L && t0 < Y2001_NS / 1_000_000_000L, l.get(0));
        assertTrue(l.get(1).matches("/tmp/tmp\\.[A-Za-z0-9]{6}"), l.get(1));
        // the shell learns each child's clock when it reaps it: sleep 2, then sleep 1 in the background
        assertEquals(List.of(t0 + 2, t0 + 2, t0 + 3), l.subList(2, 5).stream().map(Long::parseLong).toList());
        assertTrue(l.get(5).matches("( [0-9a-f]{2}){16}"), l.get(5));
        // a file made in the run: the stat process's virtual now; one older than the run: the instant before 2000
        long fresh = Long.parseLong(l.get(6));
        assertTrue(fresh >= t0 + 3 && fresh < Y2001_NS / 1_000_000_000L, l.get(6));
        assertEquals(Long.toString(Y2000_NS / 1_000_000_000L - 1), l.get(7));
    }

    @Test
    void exitStatusesPassThrough() {
        assertEquals(7, NativeFixture.weftRun("--seed", "1", "--", busybox().toString(), "sh", "-c", "exit 7").exit());
        assertEquals(128 + 9, NativeFixture.weftRun("--seed", "1", "--", busybox().toString(), "sh", "-c",
                "kill -9 $$").exit());
    }

    /** Without a supervisor (not built, not shipped) a static target keeps today's warning. */
    @Test
    void withoutTheSupervisorTheWarningStays() {
        var found = BinaryInspector.inspect(probe);
        List<String> notes = new ArrayList<>();
        assertEquals(List.of(), StaticSupervision.prefix(found, Optional.empty(), notes::add));
        assertEquals(List.of("weft run: warning: " + probe + " is statically linked; LD_PRELOAD cannot reach it, so"
                + " it runs unsimulated"), notes);
    }

    /** The launcher jar embeds weft_super; the extracted copy must be runnable. */
    @Test
    void embeddedSupervisorIsExtractedExecutable(@TempDir Path dir) throws Exception {
        try (var in = ShimLocator.class.getResourceAsStream("/dev/weft/launcher/run/native/" + ShimLocator.SUPERVISOR)) {
            assumeTrue(in != null, "skipped: no embedded supervisor (built on Linux only)");
        }
        Path nowhere = Files.createDirectories(dir.resolve("empty").resolve("bin"));
        var locator = new ShimLocator(Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString()), nowhere.resolve("weft.jar"));
        Path found = locator.locateSupervisor(dir.resolve("no-shim-here.so")).orElseThrow();
        assertTrue(found.startsWith(dir.resolve("cache")), found.toString());
        assertTrue(Files.isExecutable(found), found.toString());
    }
}
