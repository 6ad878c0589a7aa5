package dev.weft.scenario;

/**
 * Rust's {@code str::parse::<u64>()} with its error texts, needed verbatim in latency reasons
 * (scenario-dsl.md §3): optional {@code +}, ASCII digits only. Digits are consumed left to right and
 * the first problem wins, so {@code 99999999999999999999x} overflows while {@code 1x} has a bad digit.
 */
final class RustIntText {

    static final String EMPTY = "cannot parse integer from empty string";
    static final String INVALID_DIGIT = "invalid digit found in string";
    static final String TOO_LARGE = "number too large to fit in target type";

    private RustIntText() {
    }

    /** The parsed value, or throws with the Rust error text as message. */
    static long parseU64(String s) throws ParseFailure {
        if (s.isEmpty()) throw new ParseFailure(EMPTY);
        int i = s.charAt(0) == '+' ? 1 : 0;
        if (i == s.length()) throw new ParseFailure(INVALID_DIGIT); // a lone "+"
        long value = 0;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw new ParseFailure(INVALID_DIGIT);
            int digit = c - '0';
            // value * 10 + digit must stay below 2^64 (unsigned)
            if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, 10)) > 0) throw new ParseFailure(TOO_LARGE);
            long times10 = value * 10;
            long next = times10 + digit;
            if (Long.compareUnsigned(next, times10) < 0) throw new ParseFailure(TOO_LARGE);
            value = next;
        }
        return value;
    }

    /** A failed parse; the message is Rust's ParseIntError text. */
    static final class ParseFailure extends Exception {
        ParseFailure(String message) {
            super(message, null, false, false);
        }
    }
}
