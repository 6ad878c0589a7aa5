package dev.weft.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 6: every input format under 100,000 seeded mutants (1,000,000 with
 * {@code -Dweft.mutation.cases=1000000}, the benchmark mode): zero unexpected exceptions, and every rejection a
 * located error. Each format's counts and time are printed (CI logs show them).
 */
class MutationSweepTest {

    static final int CASES = Integer.getInteger("weft.mutation.cases", 100_000);

    private static void sweep(Format format) {
        MutationSweep.Result r = MutationSweep.run(format, CASES);
        System.out.println(r.summary());
        assertEquals(0, r.failures().size(), r::failureReport);
        assertEquals(CASES, r.accepted() + r.rejected());
        // A sweep that only ever hits the first check tests little: both outcomes must be common.
        assertTrue(r.rejected() > CASES / 20, r.summary());
        assertTrue(r.accepted() > CASES / 50, r.summary());
    }

    @Test
    void weftLog() {
        sweep(new LogFormat());
    }

    @Test
    void netSpec() {
        sweep(new NetSpecFormat());
    }

    @Test
    void scenario() {
        sweep(new ScenarioFormat());
    }

    @Test
    void fuzzConfig() {
        sweep(new FuzzConfigFormat());
    }

    @Test
    void rptReport() {
        sweep(new RptFormat());
    }
}
