package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Signals from outside the process tree (issue 29): one the tree did not send through its kill hooks is delivered at
 * the receiver's next turn, like the tree's own, and {@code --stats} counts them, so a run whose order depended on the
 * outside world says so. A static busybox is such an outside sender (under weft_super its clock is the tree's, but its
 * kill is a raw system call no hook marks); bash's own {@code kill} builtin is the tree's.
 */
class OutsideSignalsTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    @Test
    void outsideSignalsAreDeliveredAtATurnAndCounted() {
        RealProgramsTest.assumeInstalled("/bin/busybox");
        var r = NativeFixture.weftRun("--seed", "3", "--stats", "--", "bash", "-c",
                "trap 'echo got USR1' USR1; /bin/busybox kill -USR1 $$; echo after; kill -USR1 $$; echo end");
        assertEquals("got USR1\nafter\ngot USR1\nend\n", r.stdout(), r.stderr());
        assertTrue(r.stderr().contains("[weft] process scheduler: 1 signal(s) from outside the tree delivered at their"
                + " receiver's turn"), r.stderr());
    }
}
