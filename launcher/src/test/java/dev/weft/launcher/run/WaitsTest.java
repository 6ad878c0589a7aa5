package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Waits outside pthread mutexes and condition variables are scheduler states (issue 6, item 1). */
class WaitsTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    /**
     * examples/waits.c blocks a thread in read() on a pipe a sleeping thread fills, then waits in
     * poll/select/epoll/futex with timeouts: without the model the first read would hold the token
     * forever; with it the 3.75 s of waiting pass in virtual time, exactly.
     */
    @Test
    void blockingWaitsAreVirtualAndExact() {
        var a = NativeFixture.weftRun("--seed", "5", "--", NativeFixture.example("waits").toString());
        assertEquals(0, a.exit(), a.stderr());
        List<String> lines = a.stdout().lines().toList();
        assertEquals(List.of("reader: read 5 bytes: hello", "poll: 0", "select: 0", "epoll_wait: 0",
                "futex: woken, then timed wait -> -1"), lines.subList(0, 5));
        assertEquals("elapsed: 3750 ms", lines.get(6));
        var b = NativeFixture.weftRun("--seed", "5", "--", NativeFixture.example("waits").toString());
        assertEquals(a.stdout(), b.stdout());
        var c = NativeFixture.weftRun("--seed", "6", "--", NativeFixture.example("waits").toString());
        assertNotEquals(lines.get(5), c.stdout().lines().toList().get(5), "getrandom via syscall() is seeded");
    }

    /** A sleep, a blocking read and an untimed poll are cancellation points that pthread_cancel reaches. */
    @Test
    void cancellationReachesEveryKindOfWait() {
        for (String seed : List.of("1", "2", "3")) {
            var r = NativeFixture.weftRun("--seed", seed, "--", NativeFixture.testProgram("cancel_waits").toString());
            assertEquals("cancelled 3\n", r.stdout(), "seed " + seed + ": " + r.stderr());
            assertEquals(0, r.exit());
        }
    }

    /**
     * tests/child_wait.c: a thread blocks in waitpid() for a child that exits only after the main
     * thread writes to it. Holding the token in waitpid (the behaviour before issue 6) hangs.
     */
    @Test
    void aThreadWaitingForAChildLetsTheOthersRun() {
        for (String seed : List.of("1", "2", "3", "4")) {
            var r = NativeFixture.weftRun("--seed", seed, "--", NativeFixture.testProgram("child_wait").toString());
            assertEquals("child exited with 7\n", r.stdout(), "seed " + seed + ": " + r.stderr());
        }
    }

    /** The program is right about real threads too: natively it prints the same. */
    @Test
    void nativeRunAgrees() {
        var r = NativeFixture.exec(List.of(NativeFixture.testProgram("cancel_waits").toString()), NativeFixture.cleanEnv());
        assertEquals("cancelled 3\n", r.stdout(), r.stderr());
    }
}
