package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Raw system calls (issue 18 item 4): libc's syscall() for the clock and randomness, and inline {@code syscall}
 * instructions in the program's own code, caught by the backstop (inclusive syscall user dispatch, Linux 6.17+).
 */
class BackstopTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private static final String KERNEL = System.getProperty("os.version", "");

    /** PR_SYS_DISPATCH_INCLUSIVE_ON exists from Linux 6.17. */
    static boolean inclusiveDispatchKernel() {
        var m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(KERNEL);
        if (!m.find()) {
            return false;
        }
        int major = Integer.parseInt(m.group(1)), minor = Integer.parseInt(m.group(2));
        return major > 6 || (major == 6 && minor >= 17);
    }

    private static NativeFixture.Result run(String seed) {
        var r = NativeFixture.weftRun("--seed", seed, "--stats", "--", NativeFixture.testProgram("raw_syscalls").toString());
        assertEquals(0, r.exit(), r.stderr());
        return r;
    }

    /**
     * tests/raw_syscalls.c: syscall(SYS_getrandom / SYS_clock_gettime), then inline getrandom, clock_gettime,
     * gettimeofday, time and getpid in the main thread, a thread and a fork child: seeded values, run-stable per
     * seed, different across seeds; the inline getpid is run for the program (it equals getpid()).
     */
    @Test
    void rawCallsAreSeeded() {
        assumeTrue(inclusiveDispatchKernel(), "needs Linux 6.17+ (inclusive syscall user dispatch): " + KERNEL);
        var a = run("5");
        List<String> lines = a.stdout().lines().toList();
        assertEquals(4, lines.size(), a.stdout());
        assertTrue(lines.get(1).startsWith("main inline: getrandom 8 ") && lines.get(1).contains(" mono 0.000002000 "),
                lines.get(1));
        for (String l : lines.subList(1, 4)) {
            assertTrue(l.endsWith("getpid ok"), l);
        }
        assertTrue(a.stderr().contains("[weft] backstop: 8 raw time/random system call(s)"), a.stderr());
        for (int i = 0; i < 3; i++) {
            assertEquals(a.stdout(), run("5").stdout(), "run " + i + " of seed 5");
        }
        assertNotEquals(a.stdout(), run("6").stdout());
    }
}
