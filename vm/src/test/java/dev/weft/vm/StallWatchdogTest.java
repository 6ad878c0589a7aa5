package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.vm.qemu.StallWatchdog;
import dev.weft.vm.qemu.StallWatchdog.Verdict;
import org.junit.jupiter.api.Test;

class StallWatchdogTest {

    @Test
    void aFrozenInstructionCountIsAStallOnlyAfterTheStallTime() {
        StallWatchdog dog = new StallWatchdog(3_000, 60_000, 1_000);
        assertEquals(Verdict.RUNNING, dog.observe(1_100, 10));
        assertEquals(Verdict.RUNNING, dog.observe(2_000, 20));
        assertEquals(Verdict.RUNNING, dog.observe(5_000, 20)); // 3.0 s without progress: not yet
        assertEquals(Verdict.STALLED, dog.observe(5_001, 20));
    }

    @Test
    void progressResetsTheStallClockButNotTheTimeBound() {
        StallWatchdog dog = new StallWatchdog(3_000, 10_000, 0);
        for (long t = 0, icount = 0; t <= 10_000; t += 1_000, icount += 5) {
            assertEquals(Verdict.RUNNING, dog.observe(t, icount));
        }
        assertEquals(Verdict.OVER_TIME, dog.observe(10_001, 1_000));
    }
}
