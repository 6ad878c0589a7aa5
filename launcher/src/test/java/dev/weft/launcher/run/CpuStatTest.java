package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which CPU a program runs on and how much CPU time it has used, through every door (issue 18, item 4):
 * {@code sched_getcpu}/{@code getcpu} say CPU 0 (one simulated CPU, as {@code rdtscp}'s ECX), and the process's own
 * {@code /proc/self/stat} under all its names, {@code /proc/self/schedstat} and {@code /proc/uptime} agree with
 * {@code times()} and {@code getrusage()} at the same moment.
 */
class CpuStatTest {
    private static Path program;

    @BeforeEach
    void built() throws IOException, InterruptedException {
        NativeFixture.assumeBuilt();
        if (program == null) {
            program = NativeFixture.compileForTest("shim-native/tests/cpu_stat.c");
        }
    }

    private static NativeFixture.Result run(String seed) {
        return ShimRuns.succeeded(NativeFixture.weftRun("--seed", seed, "--", program.toString()));
    }

    /** tests/cpu_stat.c: exact values after busy work and a 1 s sleep, every relation holding, run-stable. */
    @Test
    void everyDoorAgrees() {
        var a = run("5");
        List<String> lines = a.stdout().lines().toList();
        assertFalse(a.stdout().contains("VIOLATED"), a.stdout());
        assertEquals("sched_getcpu 0 getcpu 0 cpu 0 node 0 syscall 0 cpu 0 node 0", lines.get(0));
        // the busy loop costs no virtual time, the sleep does: the process is on the CPU all its virtual life
        assertEquals("times 100 utime 100 stime 0 cutime 0 cstime 0", lines.get(1));
        assertEquals("stat utime 100 stime 0 cutime 0 cstime 0 starttime 0 processor 0", lines.get(2));
        assertTrue(lines.contains("getrusage utime 1.000003 stime 0.000000 minflt 0"), a.stdout());
        assertTrue(lines.contains("uptime 1.00 0.00"), a.stdout());
        // stat vs times (cpu, children, processor), getrusage, the four other names, schedstat, uptime, and a
        // second thread's own file and the main thread's (each naming its tid)
        assertEquals(12, lines.stream().filter(l -> l.endsWith(": holds")).count(), a.stdout());
        assertTrue(lines.contains("thread: processor 0 0 sched_getcpu 0, starttime 0 0"), a.stdout());
        for (int i = 0; i < 2; i++) {
            assertEquals(a.stdout(), run("5").stdout(), "run " + i + " of seed 5");
        }
    }

    /** Natively the program runs through too (it is right about libc and the kernel's file format). */
    @Test
    void nativeRunParses() {
        var r = NativeFixture.exec(List.of(program.toString()), NativeFixture.cleanEnv());
        assertEquals(0, r.exit(), r.stderr());
        assertTrue(r.stdout().lines().anyMatch(l -> l.startsWith("/proc/thread-self/stat utime ")), r.stdout());
    }

    /**
     * Real readers: Python parses its own /proc/self/stat after a 3 s sleep (utime, starttime, processor, and
     * os.times() beside it); procps ps, exec'd by sh so that it reports itself, computes its elapsed time from
     * /proc/uptime and its start time, and its CPU time and processor from its stat line.
     */
    @Test
    void pythonAndPsSeeTheSameClock() {
        String script = "import os, time\n"
                + "time.sleep(3)\n"
                + "s = open('/proc/self/stat').read()\n"
                + "f = s[s.rindex(')') + 2:].split()\n"
                + "print(f[11], f[19], f[36], os.times().user)";
        assertEquals("300 0 0 3.0", pythonUnderWeft(script));

        RealProgramsTest.assumeInstalled("ps");
        String sh = "sleep 2; exec ps -o etime=,time=,psr= -p $$";
        var ps = ShimRuns.succeeded(NativeFixture.weftRun("--seed", "9", "--", "sh", "-c", sh));
        assertEquals("00:00 00:00:00 0", ps.stdout().strip().replaceAll("\\s+", " "), ps.stdout());
        assertEquals(ps.stdout(), NativeFixture.weftRun("--seed", "9", "--", "sh", "-c", sh).stdout());
    }

    /**
     * Resident memory is the host kernel's doing (page cache, reclaim), so a program that reports it (redis-server's
     * INFO {@code used_memory_rss}, from its stat line; its RDB child's copy-on-write size, from smaps) would differ
     * from run to run: stat's rss, statm's resident and shared fields and every kB figure of smaps and smaps_rollup
     * but the mapping sizes read 0; the sizes of the mappings stay the program's own.
     */
    @Test
    void residentMemoryIsNotTheHosts() {
        String script = "s = open('/proc/self/stat').read()\n"
                + "f = s[s.rindex(')') + 2:].split()\n"
                + "m = open('/proc/self/statm').read().split()\n"
                + "print(f[21], m[1], m[2], int(m[0]) > 0, len(m))\n"
                + "import re\n"
                + "kb = [l for l in open('/proc/self/smaps').read().splitlines() if l.endswith(' kB')]\n"
                + "host = [l for l in kb if not re.match(r'(Size|KernelPageSize|MMUPageSize):', l)]\n"
                + "rollup = [l for l in open('/proc/self/smaps_rollup').read().splitlines() if l.endswith(' kB')]\n"
                + "print(len(host) > 100, all(l.endswith(' 0 kB') for l in host + rollup),\n"
                + "      any(l.startswith('Size:') and not l.endswith(' 0 kB') for l in kb), len(rollup) > 5)";
        assertEquals("0 0 0 True 7\nTrue True True True", pythonUnderWeft(script));
    }

    /** What {@code python3 -c script} prints under {@code weft run --seed 9}, stripped (skipped without python3). */
    private static String pythonUnderWeft(String script) {
        RealProgramsTest.assumeInstalled("python3");
        return ShimRuns.succeeded(NativeFixture.weftRun("--seed", "9", "--", "python3", "-c", script)).stdout().strip();
    }
}
