package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A process's place in the run's tree (issue 18, item 2): forked children draw from their own streams
 * (siblings differ), and the virtual clock continues across fork and exec.
 */
class ProcTreeTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private static NativeFixture.Result forkRand(String seed) {
        return ShimRuns.succeeded(
                NativeFixture.weftRun("--seed", seed, "--", NativeFixture.testProgram("fork_rand").toString(), "exec"));
    }

    /** tests/fork_rand.c: three children (the last one exec'd) and the parent print rand(). */
    @Test
    void forkedChildrenHaveTheirOwnStreams() {
        var a = forkRand("11");
        List<String> lines = a.stdout().lines().toList();
        assertEquals(4, lines.size(), a.stdout());
        var rands = new HashSet<String>();
        for (String l : lines) {
            rands.add(l.replaceAll(".*rand (\\d+).*", "$1"));
        }
        assertEquals(4, rands.size(), "siblings and the parent differ: " + a.stdout());
        // the clock crosses fork and exec: 1 s slept before the first fork, then one reading per child;
        // each child starts where the parent is after reaping the one before (it learnt that child's clock)
        for (int i = 0; i < 3; i++) {
            assertEquals("clock " + (1000001 + i) + " us", lines.get(i).replaceAll(".*(clock .*)", "$1"), lines.get(i));
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(a.stdout(), forkRand("11").stdout(), "run " + i + " of seed 11");
        }
        assertNotEquals(a.stdout(), forkRand("12").stdout());
    }

    /**
     * tests/child_clock.c: a parent's clock after reaping a child is at least the child's last (issue 18):
     * children that sleep 5 s (fork + exec, waitpid), 7 s (fork, _exit, wait4) and 3 s (posix_spawn,
     * waitid) move the parent's clock on by as much.
     */
    @Test
    void parentLearnsChildrensTime() {
        var r = NativeFixture.weftRun("--seed", "3", "--", NativeFixture.testProgram("child_clock").toString());
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("""
                parent starts at 1 us
                child 5 ends at 5000002 us
                after waitpid: 5000003 us
                child 7 ends at 12000004 us
                after wait4: 12000005 us
                child 3 ends at 15000006 us
                after waitid: 15000007 us
                """, r.stdout());
    }

    /** A shell's `date; sleep 1; date` prints two different seconds (dash reaps with wait3, bash with waitpid). */
    @Test
    void shellSleepsMoveTheClock() {
        for (String shell : List.of("sh", "bash")) {
            RealProgramsTest.assumeInstalled(shell);
            var r = NativeFixture.weftRun("--seed", "3", "--", shell, "-c",
                    "date +%s.%N; sleep 1; date +%s.%N; sleep 2 & wait; date +%s.%N");
            assertEquals(0, r.exit(), r.stderr());
            List<String> t = r.stdout().lines().toList();
            assertEquals(3, t.size(), r.stdout());
            double a = Double.parseDouble(t.get(0)), b = Double.parseDouble(t.get(1)), c = Double.parseDouble(t.get(2));
            assertTrue(b - a >= 1.0 && b - a < 1.01, shell + ": " + r.stdout());
            assertTrue(c - b >= 2.0 && c - b < 2.01, shell + ": " + r.stdout());
        }
    }

    /** The parent's own stream is the spec's: forking does not change what the root draws. */
    @Test
    void theRootKeepsTheSpecStreams() {
        var direct = ShimRuns.script("42", "perl", "print rand(), qq{\\n}");
        var forked = ShimRuns.script("42", "perl", "if (!fork) { exit } wait; print rand(), qq{\\n}");
        assertEquals(direct.stdout(), forked.stdout());
    }

    /** Perl seeds its generator in each child at the first rand(): children used to print the same. */
    @Test
    void perlChildrenDiffer() {
        String script = "for (1..3) { if (!fork) { print qq{child $_ }, rand(), qq{\\n}; exit } wait } "
                + "print qq{parent }, rand(), qq{\\n}";
        var a = ShimRuns.succeeded(ShimRuns.script("5", "perl", script));
        var values = new HashSet<String>();
        a.stdout().lines().forEach(l -> values.add(l.substring(l.lastIndexOf(' ') + 1)));
        assertEquals(4, values.size(), a.stdout());
        for (int i = 0; i < 3; i++) {
            assertEquals(a.stdout(), ShimRuns.script("5", "perl", script).stdout());
        }
        assertNotEquals(a.stdout(), ShimRuns.script("6", "perl", script).stdout());
    }
}
