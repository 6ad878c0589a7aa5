package dev.weft.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12 item 6: every input format under 100,000 seeded mutants (1,000,000 with
 * {@code -Dweft.mutation.cases=1000000}, the benchmark mode): zero unexpected exceptions, and every rejection a
 * located error. Each format's counts and time are printed (CI logs show them).
 */
class MutationSweepTest {

    static final int CASES = Integer.getInteger("weft.mutation.cases", 100_000);

    /** Every format once, named by its format name in the test report. */
    static Stream<Named<Format>> formats() {
        return Stream.<Format>of(new LogFormat(), new NetSpecFormat(), new ScenarioFormat(), new FuzzConfigFormat(),
                new RptFormat()).map(f -> Named.of(f.name(), f));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("formats")
    void sweep(Format format) {
        MutationSweep.Result r = MutationSweep.run(format, CASES);
        System.out.println(r.summary());
        assertEquals(0, r.failures().size(), r::failureReport);
        assertEquals(CASES, r.accepted() + r.rejected());
        // A sweep that only ever hits the first check tests little: both outcomes must be common.
        assertTrue(r.rejected() > CASES / 20, r.summary());
        assertTrue(r.accepted() > CASES / 50, r.summary());
    }
}
