package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** rdtsc/rdtscp trapped with PR_SET_TSC and answered from virtual time (issue 18 item 4; WEFT_RDTSC=1). */
class RdtscTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private static NativeFixture.Result run(String seed) {
        Map<String, String> env = ShimRuns.seededEnv(seed);
        env.put("WEFT_RDTSC", "1");
        return ShimRuns.succeeded(NativeFixture.exec(List.of(NativeFixture.testProgram("rdtsc_loop").toString()), env));
    }

    /**
     * tests/rdtsc_loop.c: the counter advances 3000 per read (1 us of virtual time at 3 GHz), continues
     * across the exec (the new image's loader runs with the trap off), and a real fault still reaches
     * the program's own SIGSEGV handler.
     */
    @Test
    void timestampCounterIsVirtual() {
        var a = run("4");
        List<String> lines = a.stdout().lines().toList();
        assertEquals(9, lines.size(), a.stdout());
        long first = Long.parseLong(lines.get(0).split(" ")[1]);
        assertEquals("rdtsc " + (first + 3000), lines.get(1));
        assertEquals("rdtscp " + (first + 9000) + " aux 0", lines.get(3));
        assertEquals("own SIGSEGV handler reached", lines.get(8));
        for (int i = 0; i < 3; i++) {
            assertEquals(a.stdout(), run("4").stdout(), "run " + i + " of seed 4");
        }
        assertNotEquals(a.stdout(), run("5").stdout(), "the counter's origin depends on the seed");
    }

    /**
     * {@code weft run --rdtsc} sets WEFT_RDTSC=1 for the target (behind the PID-namespace and ASLR wrappers,
     * which run without the shim and so without the trap): the same virtual counter as a direct run of the seed.
     */
    @Test
    void runOptionTurnsItOn() {
        String prog = NativeFixture.testProgram("rdtsc_loop").toString();
        var a = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "4", "--rdtsc", "--", prog));
        assertEquals(run("4").stdout(), a.stdout());
        assertEquals(a.stdout(), NativeFixture.weftRun("--seed", "4", "--rdtsc", "--", prog).stdout());
        var off = NativeFixture.weftRun("--seed", "4", "--", prog);
        assertNotEquals(a.stdout(), off.stdout(), "without --rdtsc the counter is the machine's");
    }

    /** Without WEFT_RDTSC the instruction is not trapped: the real counter (different every run). */
    @Test
    void offByDefault() {
        Map<String, String> env = ShimRuns.seededEnv("4");
        var a = NativeFixture.exec(List.of(NativeFixture.testProgram("rdtsc_loop").toString()), env);
        var b = NativeFixture.exec(List.of(NativeFixture.testProgram("rdtsc_loop").toString()), env);
        assertEquals(0, a.exit(), a.stderr());
        assertNotEquals(a.stdout(), b.stdout());
    }
}
