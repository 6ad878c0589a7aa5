package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 29: a static image exec'd by a shimmed process (a dynamic bash or sh running busybox or a {@code gcc -static}
 * program) runs under weft_super with the place in the tree the exec'ing process had: its clock continues the tree's,
 * its streams are seeded, and the shell learns its clock when it reaps it (docs/shim.md "Static images exec'd inside a
 * dynamic tree"). Before, such an image ran unsimulated: real time, real random bytes, and a warning.
 */
class StaticInTreeTest {
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
        return stdout.lines().map(l -> l.split(" ", 2)).filter(p -> p.length == 2)
                .collect(Collectors.toMap(p -> p[0], p -> p[1], (a, b) -> a));
    }

    private NativeFixture.Result probeFromBash(String seed) {
        return ShimRuns.succeeded(NativeFixture.weftRun("--seed", seed, "--", "bash", "-c",
                "echo before $(date +%s%N); \"$1\"; echo after $(date +%s%N)", "bash", probe.toString()));
    }

    @Test
    void aStaticProgramExecdFromBashReadsTheTreesClockAndSeededBytes() {
        var first = probeFromBash("7");
        assertEquals(first.stdout(), probeFromBash("7").stdout(), "two runs of one seed");
        assertNotEquals(first.stdout(), probeFromBash("8").stdout());
        assertFalse(first.stderr().contains("statically linked"), first.stderr());
        Map<String, String> v = lines(first.stdout());
        long before = Long.parseLong(v.get("before"));
        long realtime = Long.parseLong(v.get("realtime"));
        long after = Long.parseLong(v.get("after"));
        assertTrue(realtime > Y2000_NS && realtime < Y2001_NS, "the virtual 2000 epoch: " + realtime);
        assertTrue(realtime > before, "the image continues the clock the shell's child had: " + before + " " + realtime);
        // the probe sleeps 1.5 s; bash learns its clock when it reaps it
        assertTrue(after >= realtime + 1_500_000_000L, "the shell learns the static child's clock: " + v);
        assertEquals("1500001000", v.get("slept"));
        // the image draws the streams of its place in the tree, not the root's
        var direct = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "7", "--", probe.toString()));
        assertNotEquals(lines(direct.stdout()).get("getrandom"), v.get("getrandom"));
    }

    /** tests/exec_static.c: a shimmed C parent starting the static probe by posix_spawn and by fork + execv. */
    @Test
    void aShimmedCParentSpawnsOrExecsAStaticChildInTheTree() {
        Path parent = NativeFixture.testProgram("exec_static");
        for (String how : List.of("spawn", "execv")) {
            var r = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "4", "--", parent.toString(), how,
                    probe.toString()));
            assertEquals(r.stdout(), NativeFixture.weftRun("--seed", "4", "--", parent.toString(), how,
                    probe.toString()).stdout(), how);
            assertFalse(r.stderr().contains("statically linked"), r.stderr());
            Map<String, String> v = lines(r.stdout());
            assertEquals("0", v.get("child-exit"), how);
            assertTrue(Long.parseLong(v.get("monotonic")) > Long.parseLong(v.get("parent-before")),
                    how + ": the child starts at the parent's clock: " + v);
            assertTrue(Long.parseLong(v.get("parent-after")) >= 1_500_000_000L,
                    how + ": the parent learns the child's 1.5 s sleep when it reaps it: " + v);
        }
    }

    private static Path busybox() {
        Path b = Path.of("/bin/busybox");
        assumeTrue(Files.isExecutable(b) && BinaryInspector.inspect(b).staticLinked(),
                "skipped: no static /bin/busybox (Debian busybox-static)");
        return b;
    }

    /** The acceptance row t-busybox-from-sh: busybox's date, mktemp and random device from a dynamic sh. */
    @Test
    void busyboxFromShIsSeededAndRunStable() {
        String bb = busybox().toString();
        String script = bb + " date +%s; " + bb + " mktemp -u; " + bb + " sleep 1; date +%s; " + bb
                + " head -c 8 /dev/urandom | " + bb + " od -An -tx1; bash -c 'exec -a echo " + bb + " argv0 kept'";
        List<String> outs = new java.util.ArrayList<>();
        for (String seed : List.of("5", "5", "6")) {
            var r = ShimRuns.succeeded(NativeFixture.weftRun("--seed", seed, "--", "sh", "-c", script));
            assertFalse(r.stderr().contains("statically linked"), r.stderr());
            outs.add(r.stdout());
        }
        assertEquals(outs.get(0), outs.get(1));
        assertNotEquals(outs.get(0), outs.get(2));
        List<String> l = outs.get(0).lines().toList();
        long t0 = Long.parseLong(l.get(0));
        assertTrue(t0 > Y2000_NS / 1_000_000_000L && t0 < Y2001_NS / 1_000_000_000L, l.get(0));
        assertTrue(l.get(1).matches("/tmp/tmp\\.[A-Za-z0-9]{6}"), l.get(1));
        assertTrue(Long.parseLong(l.get(2)) >= t0 + 1, "sh's date after busybox sleep 1: " + l);
        assertTrue(l.get(3).matches("( [0-9a-f]{2}){8}"), l.get(3));
        assertEquals("argv0 kept", l.get(4), "argv[0] reaches the image: busybox picks its applet by it");
    }

    /**
     * Step 2 of issue 29: the supervised image takes turns in the tree's scheduler, so its sleeps are waits in the
     * tree's virtual time, in the order of their wake instants, like a dynamic sleep's. Before, they ran in real time
     * holding the run token: {@code timeout 5 busybox sleep 100} gave 124 only after 5 real seconds, through the
     * computing-holder rule and its warning (scheduling given up for the rest of the run).
     */
    @Test
    void busyboxSleepsFromShAreTurnsInTheTreesVirtualTime() {
        String bb = busybox().toString();
        String script = "date +%s.%N; timeout 5 SLEEP 100; echo rc=$?; date +%s.%N;"
                + " (SLEEP 3; echo three) & (sleep 1; echo one) & (SLEEP 2; echo two) & wait; date +%s.%N;"
                + " SLEEP 100; echo done; date +%s.%N";
        var statics = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "3", "--", "sh", "-c",
                script.replace("SLEEP", bb + " sleep")));
        assertFalse(statics.stderr().contains("WARNING"), statics.stderr());
        assertFalse(statics.stderr().contains("statically linked"), statics.stderr());
        List<String> l = statics.stdout().lines().toList();
        assertEquals(List.of("rc=124", "one", "two", "three", "done"),
                l.stream().filter(x -> !x.matches("[0-9.]+")).toList(), statics.stdout());
        assertEquals(statics.stdout(), NativeFixture.weftRun("--seed", "3", "--", "sh", "-c",
                script.replace("SLEEP", bb + " sleep")).stdout(), "two runs of one seed");
        // the same virtual times as the dynamic sleep's: timeout's 5 s, the three sleepers' 3 s, then 100 s
        var dynamic = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "3", "--", "sh", "-c",
                script.replace("SLEEP", "sleep")));
        assertEquals(dynamic.stdout(), statics.stdout());
    }

    /** A shim without weft_super beside it (a copied library) keeps the old warning, once per image. */
    @Test
    void withoutASupervisorBesideTheShimTheImageIsWarnedAboutOnce(@TempDir Path dir) throws Exception {
        Path lonely = Files.copy(NativeFixture.shim(), dir.resolve("libweft_shim.so"));
        Path stat = NativeFixture.testProgram("static_hello");
        assumeTrue(Files.isRegularFile(stat), "skipped: static_hello not built");
        Map<String, String> env = NativeFixture.cleanEnv();
        env.put("LD_PRELOAD", lonely.toString());
        env.put("WEFT_SEED", "11");
        String pathDir = stat.getParent().toString();
        var r = NativeFixture.exec(List.of("sh", "-c", stat + "; PATH=" + pathDir + ":$PATH env static_hello; env true;"
                + " echo done"), env);
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("static hello\nstatic hello\ndone\n", r.stdout(), r.stderr());
        String line = "[weft] WARNING: " + stat + " is statically linked: not simulated (run it directly under weft run"
                + " to use the static-binary supervisor)";
        assertEquals(1, r.stderr().lines().filter(line::equals).count(), r.stderr());
    }
}
