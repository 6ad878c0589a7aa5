package dev.weft.mutation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 6 for the broker's wire frames: 100,000 seeded mutants of request streams (1,000,000 with
 * {@code -Dweft.mutation.cases=1000000}) through the broker's frame reader and decoder: no unexpected exception,
 * every rejection names the field or message it is about. Uses the engine's sweep (its test-jar).
 */
class WireMutationSweepTest {

    @Test
    void wireFrames() {
        MutationSweep.Result r = MutationSweep.run(new WireFrameFormat(), Integer.getInteger("weft.mutation.cases", 100_000));
        System.out.println(r.summary());
        assertEquals(0, r.failures().size(), r::failureReport);
        // The sweep must exercise both sides, or it proves nothing about the decoder.
        assertTrue(r.accepted() > r.cases() / 100, r.summary());
        assertTrue(r.rejected() > r.cases() / 10, r.summary());
    }
}
