package dev.weft.json;

/**
 * The lexing both JSON readers share: numbers, strings, escapes (with surrogate pairs) and strict UTF-8, scanned
 * over {@code b[p, end)} with the reference's accept rules. A primitive never throws and never words an error: it
 * returns a negative problem code and leaves {@link #p} at the byte the problem is located at (documented per
 * code), so each layer ({@link JsonCursor}: weft-log lines; {@link JsonTokenizer}: whole documents) turns it into
 * its own text and location convention. Extended rather than held so the weft-log hot path reads {@code b}, {@code p}
 * and {@code end} as plain fields.
 */
abstract class JsonLexer {

    /** {@link #scanNumber()}: an integer (no fraction or exponent) / a number with a fraction or exponent. */
    static final int NUMBER_INT = 0;
    static final int NUMBER_FLOAT = 1;

    /** A number's digits are missing (after '-', '.' or the exponent); p at the byte where one was expected. */
    static final int BAD_NUMBER = -1;
    /** A number starts with 0 and another digit; p at that digit. */
    static final int LEADING_ZERO = -2;
    /** The input ends inside a string (not right after a backslash); p == end. */
    static final int STRING_EOF = -3;
    /** A raw control character in a string; p at it. */
    static final int CONTROL_CHARACTER = -4;
    /** A byte that does not start a valid UTF-8 sequence in a string; p at it. */
    static final int INVALID_UTF8 = -5;
    /** The input ends right after a backslash; p == end. */
    static final int ESCAPE_EOF = -6;
    /** A backslash followed by a letter that is no escape; p at that letter. */
    static final int INVALID_ESCAPE = -7;
    /** The input ends inside the four hex digits of a {@code \\u} escape; p == end, {@link #hexStart} set. */
    static final int HEX_EOF = -8;
    /** A byte that is no hex digit inside a {@code \\u} escape; p at it, {@link #hexStart} set. */
    static final int BAD_HEX = -9;
    /** A high surrogate escape not followed by a low one; p after the last escape read, {@link #surrogate} set. */
    static final int LONE_LEADING_SURROGATE = -10;
    /** A low surrogate escape with no high one before it; p just after it, {@link #surrogate} set. */
    static final int LONE_TRAILING_SURROGATE = -11;

    byte[] b;
    int p;
    int end;
    /** After HEX_EOF / BAD_HEX: the index of the first hex digit of the failing escape. */
    int hexStart;
    /** After a lone surrogate problem: the first surrogate escape's value. */
    int surrogate;

    /**
     * At a literal's first byte: consumes as much of {@code word} as matches; true if all of it did, else false with
     * p at the first byte that differs (or at end).
     */
    final boolean scanLiteral(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (p >= end || b[p] != word.charAt(i)) {
                return false;
            }
            p++;
        }
        return true;
    }

    /** At '-' or a digit: scans one number; returns {@link #NUMBER_INT}, {@link #NUMBER_FLOAT} or a problem. */
    final int scanNumber() {
        int kind = NUMBER_INT;
        if (b[p] == '-') {
            p++;
        }
        if (p >= end || b[p] < '0' || b[p] > '9') {
            return BAD_NUMBER;
        }
        if (b[p] == '0') {
            p++;
            if (p < end && b[p] >= '0' && b[p] <= '9') {
                return LEADING_ZERO;
            }
        } else {
            digits();
        }
        if (p < end && b[p] == '.') {
            p++;
            kind = NUMBER_FLOAT;
            if (digits() == 0) {
                return BAD_NUMBER;
            }
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            kind = NUMBER_FLOAT;
            if (p < end && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            if (digits() == 0) {
                return BAD_NUMBER;
            }
        }
        return kind;
    }

    private int digits() {
        int s = p;
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p - s;
    }

    /**
     * A string body from p (just after its opening quote) through its closing quote, which is consumed; decoded
     * into {@code out} unless it is null (then only checked). Returns 0 or a problem.
     */
    final int scanString(StringBuilder out) {
        for (;;) {
            if (p >= end) {
                return STRING_EOF;
            }
            int c = b[p];
            if (c == '"') {
                p++;
                return 0;
            }
            if (c == '\\') {
                p++;
                int cp = escape();
                if (cp < 0) {
                    return cp;
                }
                if (out != null) {
                    out.appendCodePoint(cp);
                }
            } else if (c >= 0x20) {
                if (out != null) {
                    out.append((char) c);
                }
                p++;
            } else if (c >= 0) {
                return CONTROL_CHARACTER;
            } else {
                int n = Utf8.sequenceLength(b, p, end);
                if (n == 0) {
                    return INVALID_UTF8;
                }
                if (out != null) {
                    out.appendCodePoint(Utf8.decode(b, p, n));
                }
                p += n;
            }
        }
    }

    /** After a backslash (p at the escape letter): the code point it stands for (pairs combined), or a problem. */
    final int escape() {
        if (p >= end) {
            return ESCAPE_EOF;
        }
        int c = b[p++];
        int simple = JsonEscapes.simple(c);
        if (simple >= 0) {
            return simple;
        }
        if (c != 'u') {
            p--;
            return INVALID_ESCAPE;
        }
        int u = hex4();
        if (u < 0 || !Character.isSurrogate((char) u)) {
            return u;
        }
        surrogate = u;
        if (Character.isLowSurrogate((char) u)) {
            return LONE_TRAILING_SURROGATE;
        }
        if (p + 1 < end && b[p] == '\\' && b[p + 1] == 'u') {
            p += 2;
            int lo = hex4();
            if (lo < 0) {
                return lo;
            }
            if (Character.isLowSurrogate((char) lo)) {
                return Character.toCodePoint((char) u, (char) lo);
            }
        }
        return LONE_LEADING_SURROGATE;
    }

    private int hex4() {
        hexStart = p;
        int v = 0;
        for (int i = 0; i < 4; i++) {
            if (p >= end) {
                return HEX_EOF;
            }
            int d = JsonEscapes.hexDigit(b[p]);
            if (d < 0) {
                return BAD_HEX;
            }
            v = (v << 4) | d;
            p++;
        }
        return v;
    }
}
