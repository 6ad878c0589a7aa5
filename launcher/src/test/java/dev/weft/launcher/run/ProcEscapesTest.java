package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls glibc answers with its own system calls, past the preload (issue 18, "no escapes through glibc
 * internals"): clock/times/getrusage and the temp-name family come from the seed.
 */
class ProcEscapesTest {
    @TempDir
    Path dir;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private NativeFixture.Result run(String seed) {
        var r = NativeFixture.weftRun("--seed", seed, "--", NativeFixture.testProgram("proc_escapes").toString(),
                dir.toString());
        assertEquals(0, r.exit(), r.stderr());
        return r;
    }

    /** tests/proc_escapes.c: every line is run-stable for a seed; the names differ across seeds. */
    @Test
    void cpuClocksAndTempNamesAreSeeded() throws IOException {
        var a = run("7");
        List<String> lines = a.stdout().lines().toList();
        // CPU time is virtual: 1 us per reading, consistent across clock, times and getrusage
        assertEquals(List.of("clock 1 4", "times 0 utime 0", "getrusage 0.000003 maxrss 0"), lines.subList(0, 3));
        assertFalse(a.stdout().contains("FAILED") || a.stdout().contains("INCONSISTENT"), a.stdout());
        assertTrue(lines.contains("mkstemp without X: -1"), a.stdout());
        for (int i = 0; i < 3; i++) {
            assertEquals(a.stdout(), run("7").stdout(), "run " + i + " of seed 7");
        }
        var b = run("8");
        for (String prefix : List.of("mkstemp ", "mkostemps ", "mkdtemp ", "mktemp ", "tmpnam ", "tempnam ")) {
            assertNotEquals(line(a, prefix), line(b, prefix), prefix + "depends on the seed");
        }
        assertTrue(line(a, "mkostemps ").endsWith(".txt"), "the suffix is kept");
        try (var left = Files.list(dir)) {
            assertEquals(0, left.count(), "the program removed what it created");
        }
    }

    /** Natively the same program also runs through (the test program is right about libc). */
    @Test
    void nativeRunAgrees() {
        var r = NativeFixture.exec(List.of(NativeFixture.testProgram("proc_escapes").toString(), dir.toString()),
                NativeFixture.cleanEnv());
        assertEquals(0, r.exit(), r.stderr());
        assertFalse(r.stdout().contains("FAILED"), r.stdout());
    }

    /** Lua's os.clock() is clock() (a CPU-time syscall inside glibc); os.tmpname() is mkstemp. */
    @Test
    void luaClockAndTmpname() {
        String script = "local x = 0 for i = 1, 200000 do x = x + i end "
                + "local n = os.tmpname() os.remove(n) print(os.clock(), os.clock(), os.time(), n)";
        var a = ShimRuns.succeeded(ShimRuns.script("3", "lua5.4", script));
        assertTrue(a.stdout().startsWith("3e-06\t4e-06\t"), a.stdout());
        for (int i = 0; i < 3; i++) {
            assertEquals(a.stdout(), ShimRuns.script("3", "lua5.4", script).stdout());
        }
        var b = ShimRuns.script("4", "lua5.4", script);
        assertNotEquals(a.stdout(), b.stdout());
    }

    private static String line(NativeFixture.Result r, String prefix) {
        return r.stdout().lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    }
}
