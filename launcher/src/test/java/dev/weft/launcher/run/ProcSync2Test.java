package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Process-shared rwlocks, barriers, spinlocks and named semaphores between the processes of one tree under process
 * scheduling (issue 18 item 1, second part): scheduler states, not real blocking with the run token. Runs go
 * through {@link ProcSyncTest}'s helpers: no WARNING (the run token never got stuck), no DEADLOCK, the transcript
 * identical over three runs of a seed. tests/proc_sync_locks.c checks what each object guarantees itself and ends
 * with "violations 0". Before, on the single-threaded parent the rwlock, barrier and spinlock runs held the run
 * token for 3 s (blocked in glibc, or spinning) and gave process scheduling up; with the thread model in the parent
 * the rwlock let a writer in beside other processes' readers and the barrier aborted with "DEADLOCK (at
 * barrier_wait_blocked)"; timed rwlock calls timed out at once without moving the clock, even when the child let go.
 */
class ProcSync2Test {
    private static final List<String> SEEDS = List.of("1", "2", "3");
    @RegisterExtension
    static final CompiledProgram LOCKS = new CompiledProgram("shim-native/tests/proc_sync_locks.c");

    /** The transcripts of {@code proc_sync_locks MODE [threaded]} over the seeds, each checked run-stable and clean. */
    private static Set<String> transcripts(List<String> seeds, String mode, boolean threaded, String lastLine) {
        String[] args = threaded ? new String[] {mode, "threaded"} : new String[] {mode};
        Set<String> transcripts = ProcSyncTest.perSeed(seeds, LOCKS.path(), args);
        for (String t : transcripts) {
            assertFalse(t.contains("VIOLATION"), t);
            assertTrue(t.endsWith(lastLine + "\n"), mode + " " + threaded + ":\n" + t);
        }
        return transcripts;
    }

    /** Contended modes: where the processes' lines fall among each other is free, so the seeds must disagree. */
    private static void seedSensitive(String mode, String lastLine, String threadedLastLine, Consumer<String> check) {
        for (boolean threaded : List.of(false, true)) {
            Set<String> t = transcripts(SEEDS, mode, threaded, threaded ? threadedLastLine : lastLine);
            assertTrue(t.size() > 1, "different seeds, different interleavings (" + mode + "): " + t);
            t.forEach(check);
        }
    }

    /** The parent and a child read, another child writes (threaded: a parent thread writes too), 3 rounds each. */
    @Test
    void readersAndWritersOfASharedRwlock() {
        seedSensitive("rwlock", "violations 0, value 3, serial 0", "violations 0, value 6, serial 0", t -> { });
        assertEquals(ProcSyncTest.run("2", LOCKS.path(), "rwlock"), ProcSyncTest.weftRun("2", LOCKS.path(), "rwlock"),
                "weft run --proc-sched schedules as a direct run");
    }

    /** The parent and two children (threaded: and a parent thread) pass a shared barrier three times. */
    @Test
    void aBarrierAcrossThreeProcessesWaitsForEveryone() {
        seedSensitive("barrier", "violations 0, value 0, serial 3", "violations 0, value 0, serial 3",
                ProcSync2Test::assertRoundsInOrder);
    }

    /** In the transcript too: every party's "arrives k" line comes before the first "passes k" line. */
    private static void assertRoundsInOrder(String transcript) {
        int parties = transcript.contains("thread arrives") ? 4 : 3;
        Pattern line = Pattern.compile("(\\w+) (arrives|passes) (\\d)");
        int[] arrived = new int[4];
        for (String l : transcript.lines().toList()) {
            Matcher m = line.matcher(l);
            if (!m.lookingAt()) {
                continue;
            }
            int round = Integer.parseInt(m.group(3));
            if (m.group(2).equals("arrives")) {
                arrived[round]++;
            } else {
                assertEquals(parties, arrived[round], "all arrived before '" + l + "' in\n" + transcript);
            }
        }
    }

    /** The parent and a child take a spinlock in turn; a spin on the other process's lock gives the run token away. */
    @Test
    void aSpinOnAnotherProcessesLockYieldsTheRunToken() {
        seedSensitive("spin", "violations 0, value 0, serial 0", "violations 0, value 0, serial 0", t -> { });
    }

    /**
     * Timed and try rwlock calls against a child holding the lock: ETIMEDOUT after exactly the timeout in virtual
     * time when the tree is idle, success after 0 ms when the child lets go, for any seed.
     */
    @Test
    void timedRwlockCallsAreBoundedInVirtualTime() {
        String expected = "trywrlock, read-held: EBUSY after 0 ms\n"
                + "timedwrlock, read-held: ETIMEDOUT after 800 ms\n"
                + "clockwrlock, read-held: ETIMEDOUT after 400 ms\n"
                + "timedrdlock, read-held: ok after 0 ms\n"
                + "timedwrlock, released: ok after 0 ms\n"
                + "tryrdlock, write-held: EBUSY after 0 ms\n"
                + "timedrdlock, write-held: ETIMEDOUT after 600 ms\n"
                + "clockrdlock, write-held: ETIMEDOUT after 300 ms\n"
                + "clockrdlock, released: ok after 0 ms\n"
                + "violations 0, value 0, serial 0\n";
        for (String seed : List.of("1", "2")) {
            assertEquals(expected, ProcSyncTest.run(seed, LOCKS.path(), "timed"), "seed " + seed);
            assertEquals(expected, ProcSyncTest.run(seed, LOCKS.path(), "timed", "threaded"), "threaded, seed " + seed);
        }
        assertEquals(expected, ProcSyncTest.weftRun("3", LOCKS.path(), "timed"), "through weft run --proc-sched");
    }

    /**
     * sem_open semaphores opened by name in parent and child: the parent waits for the child's post, a
     * sem_timedwait nobody can serve times out after its 1.5 s of virtual time, one the parent's post lets the
     * child answer succeeds after 0 ms.
     */
    @Test
    void namedSemaphoresAcrossProcesses() {
        for (boolean threaded : List.of(false, true)) {
            Set<String> t = transcripts(List.of("1", "2", "3", "4"), "named", threaded, "violations 0, value 0, serial 0");
            assertTrue(t.size() > 1, "different seeds, different interleavings: " + t);
            for (String transcript : t) {
                assertTrue(transcript.contains("child posts\n"), transcript);
                assertTrue(transcript.contains("parent got the semaphore\n"
                        + "sem_timedwait (named), idle: ETIMEDOUT after 1500 ms\n"), transcript);
                assertTrue(transcript.endsWith("child posts again\nsem_timedwait (named), posted: ok after 0 ms\n"
                        + "child exit 0\nviolations 0, value 0, serial 0\n"), transcript);
            }
        }
    }
}
