package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.launcher.run.NativeFixture;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Windowed runs: the node count that lets the last waiting process declare its node idle
 * (shim-native/src/node_count.h, docs/shim.md "Windowed runs"). Two processes of a node going to wait at once
 * (socat's parent back to accept, its fork child to poll) must not let the last of them declare the node idle
 * before the broker has the other's wait, nor let two of them declare, nor let a waiting process re-declare the
 * node idle (a TcpUnwait, then its wait again) while another runs again or declares: such a wait would come after
 * the broker sealed past its clock, and the run would be discarded as a late op. shim-native/tests/node_count runs
 * each interleaving at its worst point.
 */
class NodeCountOrderTest {
    @BeforeAll
    static void built() {
        NativeFixture.assumeBuilt();
    }

    @Test
    void oneIdleWaitGoesOnlyOnceTheBrokerHoldsEveryOtherWait() {
        var r = NativeFixture.exec(List.of(NativeFixture.testProgram("node_count").toString()), NativeFixture.cleanEnv());
        assertEquals(0, r.exit(), r.stdout());
        assertEquals("""
                parent and fork child both leave the count: ok
                a waiting process arms again while the other leaves: ok
                the other leaves while a waiting process arms again: ok
                two waiting processes declare at once: ok
                a process runs again while the other looks whether to re-declare: ok
                ALL OK
                """, r.stdout());
    }
}
