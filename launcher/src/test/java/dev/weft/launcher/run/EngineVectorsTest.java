package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The spec's vectors (wire-and-abi.md §9), checked inside the engine and through LD_PRELOAD. */
class EngineVectorsTest {
    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    @Test
    void engineMatchesEveryVector() {
        var r = NativeFixture.exec(List.of(NativeFixture.testProgram("vectors").toString()), NativeFixture.cleanEnv());
        assertEquals(0, r.exit(), r.stdout());
        assertEquals("ALL OK (37 vectors)\n", r.stdout());
    }

    /** The values a program sees through libc for seed 42 are the reference shim's (§9). */
    @Test
    void libcSeesTheReferenceValuesForSeed42() {
        var r = NativeFixture.weftRun("--seed", "42", "--", NativeFixture.testProgram("shimcheck").toString());
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("""
                at_random=ad0a2494f090f8c6c6f704d56e20f012
                mono1=0.000001000
                real2=962138921.000002000
                time3=962138921
                rand12=130620156 873893889
                getrandom5=2ed62cfa2b
                getrandom8=40765512399df027
                srand7_rand=1937696928
                then_drand48=0.36266640249483251
                res=1
                after_sleep=2.000004500
                urandom_dup_read=8
                urandom_dup=1e4a394cb6825ed7
                """, r.stdout());
    }

    /** Seed 0's computed vectors: AT_RANDOM is stream 3, the realtime base is 959625537 s. */
    @Test
    void seedZeroStreams() {
        var r = NativeFixture.weftRun("--seed", "0", "--", NativeFixture.testProgram("shimcheck").toString());
        assertTrue(r.stdout().startsWith("at_random=5aff58d489e40907"), r.stdout()); // 0x0709e489d458ff5a as LE bytes
        assertTrue(r.stdout().contains("real2=959625537.000002000\n"), r.stdout());
    }

    @Test
    void malformedSeedPrintsOneLineAndPassesThrough() {
        Map<String, String> env = ShimRuns.seededEnv("12ab");
        var r = NativeFixture.exec(List.of(NativeFixture.testProgram("shimcheck").toString()), env);
        assertEquals(0, r.exit());
        assertEquals("[weft] ERROR: WEFT_SEED \"12ab\": invalid decimal seed; shim inactive\n", r.stderr());
        assertTrue(!r.stdout().contains("mono1=0.000001000"), "real clock expected: " + r.stdout());
        assertTrue(!r.stdout().contains("real2=9"), "a real 21st-century clock expected: " + r.stdout());
    }

    @Test
    void unknownStrategyWarnsAndUsesRandom() {
        Map<String, String> env = ShimRuns.seededEnv("3");
        env.put("WEFT_STRATEGY", "fifo");
        var r = NativeFixture.exec(List.of(NativeFixture.example("race_bank").toString(), "2", "2"), env);
        assertEquals("[weft] WARNING: WEFT_STRATEGY \"fifo\": unknown strategy (expected 'random' or 'rr'); using default\n",
                r.stderr());
        var random = NativeFixture.weftRun("--seed", "3", "--", NativeFixture.example("race_bank").toString(), "2", "2");
        assertEquals(random.stdout(), r.stdout());
    }
}
