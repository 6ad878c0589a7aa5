package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A thread made behind the shim's pthread_create (jemalloc's background thread in redis-server) runs unmanaged, in
 * real time, next to managed threads: its clock reads must not move the clock they read, or their readings (a
 * reply's send time) depend on when it ran (docs/shim.md "Threads"). shim-native/tests/foreign_clock makes one
 * with libc's own pthread_create and lets it read the clock 1000 times.
 */
class ForeignThreadClockTest {
    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    @Test
    void aForeignThreadsClockReadsLeaveTheManagedThreadsClockAlone() {
        var r = NativeFixture.weftRun("--seed", "1", "--", NativeFixture.testProgram("foreign_clock").toString());
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("the foreign thread's reads moved the clock by 0 ns\n", r.stdout());
    }
}
