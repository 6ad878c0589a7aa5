package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue 5's determinism acceptance: same seed, same bytes; other seed, other bytes. */
class DeterminismTest {
    static final List<String> SEEDS = List.of("0", "1", "42", "0xDEADBEEF", "18446744073709551615");

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    @ParameterizedTest
    @ValueSource(strings = {"chrono", "montecarlo", "entropy"})
    void identicalPerSeedAndDifferentAcrossSeeds(String program) {
        List<String> outputs = new ArrayList<>();
        for (String seed : SEEDS) {
            var first = NativeFixture.weftRun("--seed", seed, "--", NativeFixture.example(program).toString());
            var second = NativeFixture.weftRun("--seed", seed, "--", NativeFixture.example(program).toString());
            assertEquals(0, first.exit(), first.stderr());
            assertEquals(first.stdout(), second.stdout(), program + " seed " + seed + " differs between two runs");
            outputs.add(first.stdout());
        }
        assertEquals(SEEDS.size(), new HashSet<>(outputs).size(), program + ": two seeds gave the same output");
    }

    /** Preloaded but unseeded, the shim is invisible: clocks and entropy are real again. */
    @ParameterizedTest
    @ValueSource(strings = {"chrono", "entropy"})
    void unseededRunsVary(String program) {
        assertNotEquals(unseeded(program), unseeded(program));
    }

    /** glibc's rand() without srand() is the same every run; unseeded, the shim must not change that. */
    @Test
    void unseededMontecarloEqualsNative() {
        var nat = NativeFixture.exec(List.of(NativeFixture.example("montecarlo").toString()), NativeFixture.cleanEnv());
        assertEquals(nat.stdout(), unseeded("montecarlo"));
    }

    private static String unseeded(String program) {
        Map<String, String> env = NativeFixture.cleanEnv();
        env.put("LD_PRELOAD", NativeFixture.shim().toString());
        var r = NativeFixture.exec(List.of(NativeFixture.example(program).toString()), env);
        assertEquals(0, r.exit(), r.stderr());
        assertEquals("", r.stderr());
        return r.stdout();
    }

    /** entropy combines commutatively, so even without the scheduler its totals are per-seed constants. */
    @Test
    void entropyTotalsDoNotDependOnInterleaving() {
        var sched = NativeFixture.weftRun("--seed", "9", "--", NativeFixture.example("entropy").toString(), "8", "20");
        var free = NativeFixture.weftRun("--seed", "9", "--no-sched", "--", NativeFixture.example("entropy").toString(), "8", "20");
        assertEquals(sched.stdout(), free.stdout());
    }
}
