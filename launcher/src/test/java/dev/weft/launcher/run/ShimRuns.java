package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

/** Small pieces the native tests share: a shim-preloaded environment for one seed, and "this run succeeded". */
public final class ShimRuns {

    private ShimRuns() {
    }

    /** A clean environment (mutable) with the shim preloaded and {@code WEFT_SEED} set: a direct run without the broker. */
    public static Map<String, String> seededEnv(String seed) {
        Map<String, String> env = NativeFixture.cleanEnv();
        env.put("LD_PRELOAD", NativeFixture.shim().toString());
        env.put("WEFT_SEED", seed);
        return env;
    }

    /** The run, after asserting that it exited 0 (its stderr is the failure message). */
    public static NativeFixture.Result succeeded(NativeFixture.Result r) {
        assertEquals(0, r.exit(), r.stderr());
        return r;
    }

    /**
     * {@code weft run --seed SEED -- INTERPRETER -e SCRIPT}: a one-line program of a real interpreter (lua, perl);
     * the calling test is skipped where the interpreter is not installed.
     */
    static NativeFixture.Result script(String seed, String interpreter, String script) {
        RealProgramsTest.assumeInstalled(interpreter);
        return NativeFixture.weftRun("--seed", seed, "--", interpreter, "-e", script);
    }
}
