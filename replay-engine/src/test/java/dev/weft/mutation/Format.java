package dev.weft.mutation;

import java.util.SplittableRandom;

/**
 * One input format under the mutation sweep: how to make a mutant and how to feed it to the format's public
 * entry point. {@link #feed} returns {@code null} when the input is accepted, or the error message when it is
 * rejected with the format's own exception; anything else it throws is an unexpected exception.
 *
 * <p>The broker's wire frames are swept by the same {@link MutationSweep} from the broker module's tests
 * ({@code WireFrameFormat}), which reach this package through replay-engine's test-jar.
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
