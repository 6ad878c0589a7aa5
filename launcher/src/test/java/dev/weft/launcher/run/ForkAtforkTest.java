package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A multithreaded process forks while a library's atfork handlers lock, re-initialise and unlock its mutex
 * (jemalloc's pattern; redis forks for BGSAVE and a replica's full resync): the child can use the mutex
 * (shim-native/tests/fork_atfork.c). The scheduler model used to keep the mutex owned in the child and
 * abort it as a deadlock. With and without process scheduling.
 */
class ForkAtforkTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "0"})
    void aForkChildCanUseAMutexItsAtforkHandlerReinitialised(String procSched) {
        var env = ShimRuns.seededEnv("3");
        env.put("WEFT_PROC_SCHED", procSched);
        var r = NativeFixture.exec(List.of(NativeFixture.testProgram("fork_atfork").toString()), env);
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("child locked it\nparent: child exited 0\n", r.stdout(), r.stderr());
    }
}
