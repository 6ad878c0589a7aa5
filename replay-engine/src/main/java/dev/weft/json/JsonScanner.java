package dev.weft.json;

/**
 * The one byte-level JSON tokenizer under every schema layer, with the reference's accept rules: white space (with
 * line and column), the open containers and the iteration over their members and elements, member names up to their
 * ':', numbers, strings, escapes (with surrogate pairs), literals and strict UTF-8, scanned over {@code b[p, end)}.
 * A primitive never throws and never words an error: it returns a negative problem code and leaves {@link #p} at the
 * byte the problem is located at (documented per code), so each layer ({@link JsonCursor}: weft-log lines;
 * {@link JsonTokenizer}: whole documents) turns it into its own text and location convention. Nothing recurses, so
 * no depth of nesting can overflow the stack. Extended rather than held so the weft-log hot path reads {@code b},
 * {@code p} and {@code end} as plain fields.
 */
abstract class JsonScanner {

    /** {@link #scanNumber()}, {@link #scanValue}: an integer (no fraction or exponent) / a number with one. */
    static final int NUMBER_INT = 0;
    static final int NUMBER_FLOAT = 1;
    /** {@link #scanValue}: the other kinds of value; at OBJECT and ARRAY nothing is consumed (see {@link #open}). */
    static final int STRING = 2;
    static final int TRUE = 3;
    static final int FALSE = 4;
    static final int NULL = 5;
    static final int OBJECT = 6;
    static final int ARRAY = 7;

    /** {@link #nextItem}, {@link #firstItem}, {@link #afterItem}: p is at the next member or element. */
    static final int ITEM = 0;
    /** {@link #nextItem}, {@link #firstItem}, {@link #afterItem}: the container's closer was consumed. */
    static final int CLOSED = 1;

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
    /** No value starts here; p at the byte (or end). */
    static final int EXPECTED_VALUE = -12;
    /** A literal (true, false, null) misspelt; p at the first byte that differs (or end), {@link #valueStart} set. */
    static final int BAD_LITERAL = -13;
    /** After a member name, no ':'; p at the byte where it was expected (white space skipped). */
    static final int EXPECTED_COLON = -14;
    /** After an item, neither ',' nor the container's closer; p at that byte (or end). */
    static final int EXPECTED_SEPARATOR = -15;
    /** A ',' directly followed by the container's closer; p at the closer. */
    static final int TRAILING_COMMA = -16;
    /** Something other than white space after the top-level value; p at its first byte. */
    static final int TRAILING_CHARACTERS = -17;

    byte[] b;
    int p;
    int end;
    /** 1-based line of p, and the index of that line's first byte: where {@link #column()} counts from. */
    int line;
    int lineStart;
    /** No white space skipped since {@link #input}; the layers clear it for their own reasons too (escapes, order). */
    boolean compact;
    /** After a {@link #scanValue}: the index of the value's first byte. */
    int valueStart;
    /** After HEX_EOF / BAD_HEX: the index of the first hex digit of the failing escape. */
    int hexStart;
    /** After a lone surrogate problem: the first surrogate escape's value. */
    int surrogate;

    /** The open containers, innermost last: whether each is an object and whether an item has been read in it. */
    boolean[] isObject = new boolean[16];
    private boolean[] hasItem = new boolean[16];
    int depth;

    /** Starts reading {@code buf[off, off+len)} at line 1, no container open. */
    final void input(byte[] buf, int off, int len) {
        b = buf;
        p = off;
        end = off + len;
        line = 1;
        lineStart = off;
        compact = true;
        depth = 0;
    }

    /** Column (1-based, in bytes) of the next byte to read, so {@code column() - 1} is the last byte read. */
    public int column() {
        return p - lineStart + 1;
    }

    // ---------------------------------------------------------------- white space and structure

    /** Skips white space (space, tab, CR, LF), counting lines. */
    final void ws() {
        while (p < end) {
            byte c = b[p];
            if (c > ' ') {
                return; // the usual case, one test
            }
            if (c == '\n') {
                line++;
                lineStart = p + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            compact = false;
            p++;
        }
    }

    /** At '{' or '[': consumes it and opens that container (then {@link #nextItem} moves through it). */
    final void open() {
        if (depth == isObject.length) {
            isObject = java.util.Arrays.copyOf(isObject, depth * 2);
            hasItem = java.util.Arrays.copyOf(hasItem, depth * 2);
        }
        isObject[depth] = b[p++] == '{';
        hasItem[depth] = false;
        depth++;
    }

    /**
     * Moves to the next member or element of the innermost open container ({@link #firstItem} or {@link #afterItem}
     * with its closer): {@link #ITEM}, {@link #CLOSED} (the container is closed: {@code isObject[depth]} still says
     * what it was) or their problems.
     */
    final int nextItem() {
        int top = depth - 1;
        byte closer = isObject[top] ? (byte) '}' : (byte) ']';
        int r = hasItem[top] ? afterItem(closer) : firstItem(closer);
        if (r == CLOSED) {
            depth = top;
        } else {
            hasItem[top] = true;
        }
        return r;
    }

    /** Just after a container's opener: white space, then {@link #CLOSED} at the closer (consumed) or {@link #ITEM}. */
    final int firstItem(byte closer) {
        ws();
        if (p < end && b[p] == closer) {
            p++;
            return CLOSED;
        }
        return ITEM;
    }

    /**
     * After a member or element: white space, then a ',' and white space ({@link #ITEM}, or {@link #TRAILING_COMMA}
     * at the closer), or the closer (consumed: {@link #CLOSED}), else {@link #EXPECTED_SEPARATOR}.
     */
    final int afterItem(byte closer) {
        ws();
        if (p < end) {
            byte c = b[p];
            if (c == ',') {
                p++;
                ws();
                return p < end && b[p] == closer ? TRAILING_COMMA : ITEM;
            }
            if (c == closer) {
                p++;
                return CLOSED;
            }
        }
        return EXPECTED_SEPARATOR;
    }

    /** After a member name: white space and the ':' (consumed), or {@link #EXPECTED_COLON}. */
    final int colon() {
        ws();
        if (p < end && b[p] == ':') {
            p++;
            return 0;
        }
        return EXPECTED_COLON;
    }

    /** After the top-level value: only white space may follow; 0 or {@link #TRAILING_CHARACTERS}. */
    final int endOfInput() {
        ws();
        return p < end ? TRAILING_CHARACTERS : 0;
    }

    // ---------------------------------------------------------------- values

    /**
     * At the first byte of a value: its kind ({@link #NUMBER_INT} ... {@link #ARRAY}) or a problem. A scalar is
     * consumed (a string decoded into {@code out} unless it is null); at '{' or '[' nothing is.
     */
    final int scanValue(StringBuilder out) {
        valueStart = p;
        if (p >= end) {
            return EXPECTED_VALUE;
        }
        switch (b[p]) {
            case '{':
                return OBJECT;
            case '[':
                return ARRAY;
            case '"': {
                p++;
                int problem = scanString(out);
                return problem < 0 ? problem : STRING;
            }
            case 't':
                return scanLiteral("true") ? TRUE : BAD_LITERAL;
            case 'f':
                return scanLiteral("false") ? FALSE : BAD_LITERAL;
            case 'n':
                return scanLiteral("null") ? NULL : BAD_LITERAL;
            default: {
                byte c = b[p];
                return c == '-' || (c >= '0' && c <= '9') ? scanNumber() : EXPECTED_VALUE;
            }
        }
    }

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
