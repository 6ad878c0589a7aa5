package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The deterministic scheduler on the example programs (issue 5 acceptance). */
class SchedulerTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private static NativeFixture.Result run(String seed, String... programAndArgs) {
        String[] args = new String[programAndArgs.length + 3];
        args[0] = "--seed";
        args[1] = seed;
        args[2] = "--";
        args[3] = NativeFixture.example(programAndArgs[0]).toString();
        System.arraycopy(programAndArgs, 1, args, 4, programAndArgs.length - 1);
        return NativeFixture.weftRun(args);
    }

    /** Seed 3 loses two deposits, seed 2 none; each is identical over 20 runs. */
    @Test
    void raceBankFiresOnAPinnedSeedOnly() {
        for (int i = 0; i < 20; i++) {
            var fires = run("3", "race_bank", "2", "2");
            assertEquals("threads=2 iters=2 expected=4 balance=2 lost=2\n", fires.stdout(), "run " + i);
            assertEquals(1, fires.exit());
            var clean = run("2", "race_bank", "2", "2");
            assertEquals("threads=2 iters=2 expected=4 balance=4 lost=0\n", clean.stdout(), "run " + i);
            assertEquals(0, clean.exit());
        }
    }

    @Test
    void raceBankLossIsSeedDetermined() {
        assertEquals("threads=4 iters=25 expected=100 balance=38 lost=62\n", run("1", "race_bank", "4", "25").stdout());
        Set<String> outcomes = new HashSet<>();
        for (int seed = 1; seed <= 6; seed++) {
            var a = run(Integer.toString(seed), "race_bank", "4", "25");
            assertEquals(a, run(Integer.toString(seed), "race_bank", "4", "25"), "seed " + seed);
            outcomes.add(a.stdout());
        }
        assertTrue(outcomes.size() > 1, "the lost count should depend on the seed: " + outcomes);
    }

    @Test
    void deadlockIsDetectedOnSomeSeedsAndNotOthers() {
        int deadlocked = 0;
        int completed = 0;
        for (int seed = 1; seed <= 8; seed++) {
            var a = run(Integer.toString(seed), "deadlock");
            assertEquals(a, run(Integer.toString(seed), "deadlock"), "seed " + seed);
            if (a.exit() == 134) {
                assertEquals("[weft] DEADLOCK: 3 thread(s) blocked, none can make progress (at mutex_lock_contended)\n",
                        a.stderr());
                assertEquals("", a.stdout());
                deadlocked++;
            } else {
                assertEquals(0, a.exit(), a.stderr());
                assertEquals("completed without deadlock (shared=2)\n", a.stdout());
                completed++;
            }
        }
        assertTrue(deadlocked > 0 && completed > 0, deadlocked + " deadlocked, " + completed + " completed");
    }

    @Test
    void prodconsIsCorrectUnderBothStrategies() {
        for (String strategy : new String[] {"random", "rr"}) {
            for (int seed = 1; seed <= 5; seed++) {
                var r = NativeFixture.weftRun("--seed", Integer.toString(seed), "--strategy", strategy, "--",
                        NativeFixture.example("prodcons").toString(), "3", "2", "40");
                assertEquals(0, r.exit(), r.stderr());
                assertTrue(r.stdout().endsWith("match=1\n"), r.stdout());
            }
        }
    }

    @Test
    void threadChurnIsReproducibleAndSeedDependent() {
        Set<String> outcomes = new HashSet<>();
        for (int seed = 1; seed <= 4; seed++) {
            var a = run(Integer.toString(seed), "thread_churn", "12");
            assertEquals(0, a.exit(), a.stderr());
            assertEquals(a, run(Integer.toString(seed), "thread_churn", "12"), "seed " + seed);
            outcomes.add(a.stdout());
        }
        assertTrue(outcomes.size() > 1, outcomes.toString());
    }

    /** Extensions: virtual-time timeouts, cancel of a waiter, barriers, recursive/errorcheck mutexes. */
    @Test
    void extensionsBehaveOnEverySeed() {
        String expected = """
                timedwait: ETIMEDOUT after>=deadline=1
                cancel: joined canceled=1
                cancel: mutex free afterwards=1
                barrier: passed=3 serial=1
                recursive: 0 0
                errorcheck: relock=EDEADLK
                """;
        for (int seed = 1; seed <= 12; seed++) {
            var r = NativeFixture.weftRun("--seed", Integer.toString(seed), "--strategy", seed % 2 == 0 ? "rr" : "random",
                    "--", NativeFixture.testProgram("sync").toString());
            assertEquals(expected, r.stdout(), "seed " + seed + ": " + r.stderr());
            assertEquals(0, r.exit());
        }
    }

    @Test
    void statsLineListsSortedSites() {
        var r = NativeFixture.weftRun("--seed", "3", "--stats", "--", NativeFixture.example("race_bank").toString(), "2", "2");
        assertTrue(r.stderr().matches("(?s)\\[weft\\] scheduler: 3 logical thread\\(s\\), \\d+ decision\\(s\\), 6 distinct"
                + " yield-point site\\(s\\): \\[\"join\", \"mutex_lock\", \"mutex_lock_contended\", \"mutex_unlock\","
                + " \"pthread_create\", \"thread_finished\"\\]\n\\[weft\\] rdrand: cpu rdrand=(yes|no) rdseed=(yes|no);"
                + " OPENSSL_ia32cap masks rdrand=yes rdseed=yes; [^\n]*\n"), r.stderr());
    }

    @Test
    void traceWritesOneLinePerHook() {
        var r = NativeFixture.weftRun("--seed", "3", "--trace", "--", NativeFixture.example("race_bank").toString(), "2", "2");
        assertTrue(r.stderr().lines().allMatch(l -> l.startsWith("[weft] trace ")), r.stderr());
        assertTrue(r.stderr().contains("[weft] trace pthread_create(tid 1)\n"), r.stderr());
        assertTrue(r.stderr().lines().filter(l -> l.startsWith("[weft] trace pthread_mutex_lock(")).count() >= 8);
    }

    @Test
    void noSchedRunsThreadsFreely() {
        var r = NativeFixture.weftRun("--seed", "1", "--no-sched", "--stats", "--",
                NativeFixture.example("prodcons").toString(), "2", "2", "200");
        assertEquals(0, r.exit());
        assertTrue(r.stderr().contains("0 decision(s)"), r.stderr());
    }
}
