package dev.weft.mutation;

import java.util.SplittableRandom;
import java.util.regex.Pattern;

/**
 * A format whose mutants all come from one {@link ByteMutator} over its seeds and dictionary, and whose parser
 * reports errors as exceptions with a message: the name, the mutant and the "is this rejection located?" rule
 * live here once, so each format only says how to feed its parser and what a located message looks like.
 */
abstract class SeededFormat implements Format {

    private final String name;
    private final ByteMutator mutator;

    SeededFormat(String name, ByteMutator mutator) {
        this.name = name;
        this.mutator = mutator;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public byte[] mutant(SplittableRandom r) {
        return mutator.next(r);
    }

    /**
     * The rejection message when it is located: present, on one line, and matching {@code located}; otherwise
     * {@link Unlocated} (its message prefixed by {@code context} when that is not empty).
     */
    static String locatedOrThrow(String message, Pattern located, String context) throws Unlocated {
        if (message == null || message.contains("\n") || !located.matcher(message).matches()) {
            throw new Unlocated(context.isEmpty() ? String.valueOf(message) : context + ": " + message);
        }
        return message;
    }
}
