package dev.weft.mutation;

import java.util.SplittableRandom;

/**
 * One input format under the mutation sweep: how to make a mutant and how to feed it to the format's public
 * entry point. {@link #feed} returns {@code null} when the input is accepted, or the error message when it is
 * rejected with the format's own exception; anything else it throws is an unexpected exception.
 *
 * <p>Hook for the broker's wire frames: the frame codec lives in the broker module (branch {@code broker},
 * {@code dev.weft.broker.wire}), which this module cannot see. Its sweep is a Format whose mutant() mutates encoded
 * request frames and whose feed() decodes them, run by the same {@link MutationSweep} from the broker's tests once
 * this package is shared with them (a test-jar of replay-engine, or a copy of these three small classes).
 */
interface Format {

    String name();

    /** The mutant for one case; everything random comes from {@code r}. */
    byte[] mutant(SplittableRandom r);

    /** Null if accepted, else the message of the format's own error; throws {@link Unlocated} for an error without a place. */
    String feed(byte[] input) throws Exception;

    /** A rejection whose message names no line, offset, op or member. */
    final class Unlocated extends Exception {
        private static final long serialVersionUID = 1L;

        Unlocated(String message) {
            super(message);
        }
    }
}
