package dev.weft.json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The weft-log schema's layer over {@link JsonScanner}: a cursor over one line held as UTF-8 bytes in the caller's
 * buffer, zero-copy (numbers are parsed in place, names matched against a {@link JsonNames} table without decoding,
 * strings without escapes located rather than copied). A schema layer drives it member by member:
 * {@link #openObject} enters an object, {@link JsonMembers#next} names the next member, {@link #integer},
 * {@link #string}, {@link #bool} read its value, {@link #skipValue} skips an ignored one (still checked as JSON),
 * {@link #nextMember} moves on. Accept rules are the reference's (serde_json): any white space, escapes and member
 * order, duplicate members rejected, lone surrogate escapes, raw control characters, invalid UTF-8 and trailing
 * characters rejected, its recursion limit of 128 for buffered values.
 *
 * <p>Errors are {@link JsonLineException}s whose text names the field and column ({@code expected an integer for
 * "op" at column 7}): this class words the scanner's problem codes for a line. While reading, the cursor also tracks
 * whether the line is still in the writers' compact form ({@link #compact()}: no white space, no escapes); the
 * schema clears it where member order or unknown members break the canonical form. One instance is reused for every
 * line (not thread-safe).
 */
public final class JsonCursor extends JsonScanner {

    private static final long U64_MAX = -1L;
    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    /** Names of nested objects inside skipped values: matched against nothing (each is decoded for duplicates). */
    private static final JsonNames NO_NAMES = new JsonNames();

    private final StringBuilder sb = new StringBuilder(64);
    /** Name of the last member name parsed that was not in the expected set. */
    String lastUnknownKey;
    /** Index of the line's first byte: columns count from it, whatever white space the line holds. */
    private int lineOff;

    /** The buffer being read. */
    public byte[] bytes() {
        return b;
    }

    /** Index in {@link #bytes()} of the next byte to read. */
    public int pos() {
        return p;
    }

    /** Moves back (or on) to index {@code pos} of the same line, e.g. to re-read an object once its tag is known. */
    public void seek(int pos) {
        p = pos;
    }

    /** Consumes one byte the caller has looked at ({@link #peek}, {@link #at}). */
    public void advance() {
        p++;
    }

    /** Whether the next byte is {@code c}. */
    public boolean at(char c) {
        return p < end && b[p] == c;
    }

    /** Whether the line read so far is in compact form (see the class comment). */
    public boolean compact() {
        return compact;
    }

    /** The schema found something the compact form does not have (member order, an unknown or missing member). */
    public void notCompact() {
        compact = false;
    }

    /**
     * At a string (p at its opening quote) without escapes or control bytes: the index of its closing quote, with
     * nothing consumed; -1 for any other string (read it with {@link #string}). For strings the caller only
     * compares or copies raw (a chain value, a tag).
     */
    public int plainStringEnd() {
        int i = p + 1;
        while (i < end && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20) {
            i++;
        }
        return i < end && b[i] == '"' ? i : -1;
    }

    /** A string's raw bytes [from, to) as text (ISO-8859-1: for ASCII-only values such as tags in messages). */
    public String raw(int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    /** Starts reading the line {@code buf[off, off+len)}, assumed compact until seen otherwise. */
    public void start(byte[] buf, int off, int len) {
        input(buf, off, len);
        lineOff = off;
        lastUnknownKey = null;
    }

    public int peek() {
        return p < end ? b[p] : -1;
    }

    /** Fails unless the next byte is c (which stays unread). */
    public void expectAt(char c, String what) throws JsonLineException {
        if (peek() != c) {
            throw err(what);
        }
    }

    public void expect(char c, String what) throws JsonLineException {
        if (p < end && b[p] == c) {
            p++;
        } else {
            throw err(what);
        }
    }

    /**
     * At an object (after any white space) or fails with {@code notAnObject}: enters it; true if a member follows
     * (p at its name), false if it was empty.
     */
    public boolean openObject(String notAnObject) throws JsonLineException {
        ws();
        expect('{', notAnObject);
        return firstItem((byte) '}') == ITEM;
    }

    /** At a '{' the caller has checked for: like {@link #openObject}. */
    public boolean enterObject() {
        p++;
        return firstItem((byte) '}') == ITEM;
    }

    /** After a member value: true if a ',' (another member follows), false at '}'. */
    public boolean nextMember(String what) throws JsonLineException {
        int next = afterItem((byte) '}');
        if (next == ITEM) {
            return true;
        }
        if (next == CLOSED) {
            return false;
        }
        throw err(next == TRAILING_COMMA ? "expected a member name in double quotes"
                : "expected ',' or '}' in " + what);
    }

    /**
     * Parses a member name and the following ':'; returns its index in {@code keys} or -1 (then
     * {@link #lastUnknownKey} holds the decoded name). {@code hint} is the index expected here, tried first.
     */
    public int key(JsonNames keys, int hint) throws JsonLineException {
        if (p >= end || b[p] != '"') {
            throw err("expected a member name in double quotes");
        }
        if (hint >= 0 && hint < keys.quoted.length && p + 16 <= end && keys.wordLen[hint] != 0) {
            // Writers emit members in compact order: compare "name": with the expected one, 8 bytes at a time.
            if (((long) LONG_LE.get(b, p) & keys.mask0[hint]) == keys.word0[hint]
                    && ((long) LONG_LE.get(b, p + 8) & keys.mask1[hint]) == keys.word1[hint]) {
                p += keys.wordLen[hint];
                if (p < end && b[p] <= ' ') {
                    ws();
                }
                return hint;
            }
        } else if (hint >= 0 && hint < keys.quoted.length) {
            // Near the end of the line: the same test, byte by byte.
            byte[] k = keys.quoted[hint];
            int n = k.length;
            int q = p + 1;
            if (q + n < end) {
                int i = 0;
                while (i < n && b[q + i] == k[i]) {
                    i++;
                }
                if (i == n) {
                    p = q + n;
                    if (b[p] == ':') {
                        p++;
                        if (p < end && b[p] <= ' ') {
                            ws();
                        }
                    } else {
                        nameColon();
                    }
                    return hint;
                }
            }
        }
        int s = ++p;
        while (p < end) {
            byte c = b[p];
            if (c == '"') {
                break;
            }
            if (c < 0x20 || c == '\\') { // control, escape or non-ASCII: decode properly
                p = s;
                compact = false;
                String name = stringBody(s);
                int id = keys.find(name);
                lastUnknownKey = id < 0 ? name : null;
                nameColon();
                return id;
            }
            p++;
        }
        if (p >= end) {
            throw err("unterminated member name");
        }
        int len = p - s;
        p++;
        int id = len == 0 ? -1 : keys.find(b, s, len, hint);
        if (id < 0) {
            lastUnknownKey = new String(b, s, len, StandardCharsets.ISO_8859_1);
        }
        nameColon();
        return id;
    }

    private void nameColon() throws JsonLineException {
        if (colon() < 0) {
            throw err("expected ':' after a member name");
        }
        ws();
    }

    /** Records an unknown member name of an object (ignored, but not twice); the line is then not compact. */
    List<String> noteUnknown(List<String> seen, String name, String what) throws JsonLineException {
        compact = false;
        return noteName(seen, name, what);
    }

    private List<String> noteName(List<String> seen, String name, String what) throws JsonLineException {
        if (seen == null) {
            seen = new ArrayList<>(2);
        } else if (seen.contains(name)) {
            throw duplicate(name, what);
        }
        seen.add(name);
        return seen;
    }

    /** A JSON integer for an unsigned field with the given (unsigned) maximum. */
    public long integer(String field, long max) throws JsonLineException {
        int s = p;
        if (p >= end) {
            throw err("expected an integer for \"" + field + "\"");
        }
        int c = b[p];
        if (c < '0' || c > '9') {
            if (c == '-') {
                throw err("\"" + field + "\" must be an unsigned integer, found a negative number");
            }
            throw err("expected an integer for \"" + field + "\"");
        }
        long v;
        int i;
        if (p + 8 <= end) {
            // Up to 8 digits at once: find how many of the next 8 bytes are digits, convert them together.
            long x = (long) LONG_LE.get(b, p);
            long nonDigit = ((x & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L)
                    | (((x + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L);
            int n = nonDigit == 0 ? 8 : Long.numberOfTrailingZeros(nonDigit) >>> 3;
            v = eightDigits(n == 8 ? x : (x & ((1L << (8 * n)) - 1)) << (8 * (8 - n)));
            i = p + n;
        } else {
            v = c - '0';
            i = p + 1;
        }
        int fastEnd = Math.min(end, p + 18); // 18 digits always fit in a signed long
        while (i < fastEnd) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            v = v * 10 + d;
            i++;
        }
        while (i < end) { // digits 19 and 20, and any further ones: check for unsigned overflow
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            if (Long.compareUnsigned(v, 1844674407370955161L) > 0 || (v == 1844674407370955161L && d > 5)) {
                throw new JsonLineException("number for \"" + field + "\" out of range at column "
                        + (s - lineOff + 1), false);
            }
            v = v * 10 + d;
            i++;
        }
        if (c == '0' && i - p > 1) {
            p++;
            throw err("leading zero in the number for \"" + field + "\"");
        }
        p = i;
        if (p < end && (b[p] == '.' || b[p] == 'e' || b[p] == 'E')) {
            throw err("\"" + field + "\" must be an integer (no fraction or exponent)");
        }
        if (max != U64_MAX && Long.compareUnsigned(v, max) > 0) {
            throw new JsonLineException("number " + Long.toUnsignedString(v) + " for \"" + field
                    + "\" out of range (max " + max + ") at column " + (s - lineOff + 1), false);
        }
        return v;
    }

    /**
     * The value of 8 ASCII digits loaded little-endian (first digit in the lowest byte; leading zero
     * bytes count as zeros): pairs, then quads, then the whole, each step one multiply.
     */
    private static long eightDigits(long raw) {
        long v = ((raw & 0x0F0F0F0F0F0F0F0FL) * 2561) >>> 8;
        v = ((v & 0x00FF00FF00FF00FFL) * 6553601) >>> 16;
        return ((v & 0x0000FFFF0000FFFFL) * 42949672960001L) >>> 32;
    }

    public boolean bool(String field) throws JsonLineException {
        if (literal("true")) {
            return true;
        }
        if (literal("false")) {
            return false;
        }
        throw err("expected true or false for \"" + field + "\"");
    }

    /** Consumes the literal if it is next (followed by a non-identifier char is checked by the caller's grammar). */
    public boolean literal(String word) {
        int s = p;
        if (scanLiteral(word)) {
            return true;
        }
        p = s;
        return false;
    }

    public String string(String field) throws JsonLineException {
        if (p >= end || b[p] != '"') {
            throw err("expected a string for \"" + field + "\"");
        }
        int s = ++p;
        while (p < end) {
            byte c = b[p];
            if (c == '"') {
                String r = new String(b, s, p - s, StandardCharsets.ISO_8859_1);
                p++;
                return r;
            }
            if (c < 0x20 || c == '\\') {
                break;
            }
            p++;
        }
        p = s;
        compact = false;
        return stringBody(s);
    }

    /** Decodes a string body starting at s (just after the opening quote) and consumes the closing quote. */
    private String stringBody(int s) throws JsonLineException {
        sb.setLength(0);
        p = s;
        int problem = scanString(sb);
        if (problem < 0) {
            throw stringProblem(problem);
        }
        return sb.toString();
    }

    /** This layer's words for a problem {@link #scanString} found (p where it left it). */
    private JsonLineException stringProblem(int problem) {
        return switch (problem) {
            case STRING_EOF, ESCAPE_EOF -> err("unterminated string");
            case CONTROL_CHARACTER -> err("control character in a string (must be escaped)");
            case INVALID_UTF8 -> new JsonLineException("invalid UTF-8", true);
            case INVALID_ESCAPE -> err("invalid escape in a string");
            case HEX_EOF, BAD_HEX -> {
                if (hexStart + 4 > end) { // fewer than four bytes left: unterminated, whatever they are
                    p = hexStart;
                    yield err("unterminated \\u escape");
                }
                yield err("invalid hex digit in a \\u escape");
            }
            case LONE_LEADING_SURROGATE -> err("lone leading surrogate in a \\u escape");
            case LONE_TRAILING_SURROGATE -> err("lone trailing surrogate in a \\u escape");
            default -> throw new IllegalStateException("not a string problem: " + problem);
        };
    }

    // ---------------------------------------------------------------- skipping unknown values
    // Iterative, over the scanner's stack of open containers, so no depth can overflow the thread's stack.
    // Where the reference ignores a value (unknown members of the record, header and meta) it accepts any depth.
    // Inside an event or outcome it has buffered the whole tagged object before it knows the variant, and its
    // parser's recursion limit of 128 levels (counted from the line's object) applies there: so here too.

    /** serde_json's recursion limit for values it buffers (event and outcome members). */
    private static final int MAX_DEPTH = 128;
    private static final int ANY_DEPTH = Integer.MIN_VALUE / 2;

    /**
     * Per open container of the value being skipped (by depth): the member names seen so far (null before the
     * second), to reject duplicates. Reused across lines.
     */
    private List<?>[] openNames = new List<?>[16];

    /** Skips an unknown member's value where the reference ignores it: any depth. */
    public void skipIgnored() throws JsonLineException {
        skip(null, "object", ANY_DEPTH);
    }

    /** Skips a value at nesting level {@code level} of a buffered (tagged) object: at most {@link #MAX_DEPTH}. */
    public void skipValue(int level) throws JsonLineException {
        skip(null, "object", level);
    }

    /**
     * Skips one JSON value, still checking it as JSON and rejecting duplicate member names in its objects; if
     * it is an object, {@code topKeys} (may be null) are the names its own members are matched against and
     * {@code topWhat} names it in errors; {@code level} is its nesting level for the recursion limit. The scanner's
     * container stack holds the open containers (it is empty outside this method).
     */
    public void skip(JsonNames topKeys, String topWhat, int level) throws JsonLineException {
        for (;;) {
            if (level + depth > MAX_DEPTH) {
                throw err("recursion limit exceeded");
            }
            int kind = scanValue(null); // at the start of a value
            if (kind == OBJECT || kind == ARRAY) {
                open();
                if (depth > openNames.length) {
                    openNames = java.util.Arrays.copyOf(openNames, depth * 2);
                }
                openNames[depth - 1] = null;
            } else if (kind < 0) {
                throw valueProblem(kind);
            }
            // A value ended or a container opened: on to the next member or element of the innermost one still open.
            for (;;) {
                if (depth == 0) {
                    return;
                }
                int next = nextItem();
                if (next == CLOSED) {
                    continue;
                }
                boolean object = isObject[depth - 1];
                if (next == ITEM) {
                    if (object) {
                        skippedMemberName(topKeys, topWhat);
                    }
                    break;
                }
                if (next == TRAILING_COMMA) { // worded as what is missing after the ','
                    throw err(object ? "expected a member name in double quotes" : "expected a JSON value");
                }
                throw err(object ? "expected ',' or '}' in " + (depth == 1 ? topWhat : "object")
                        : "expected ',' or ']' in an array");
            }
        }
    }

    /** A member name (and its ':') inside the innermost open object; duplicates are errors. */
    @SuppressWarnings("unchecked")
    private void skippedMemberName(JsonNames topKeys, String topWhat) throws JsonLineException {
        JsonNames keys = depth == 1 && topKeys != null ? topKeys : NO_NAMES;
        int id = key(keys, 0);
        if (id < 0) {
            compact = false;
        }
        String name = id >= 0 ? keys.name(id) : lastUnknownKey;
        openNames[depth - 1] = noteName((List<String>) openNames[depth - 1], name, depth == 1 ? topWhat : "object");
    }

    /** This layer's words for a problem {@link #scanValue} found in a skipped value. */
    private JsonLineException valueProblem(int problem) {
        return switch (problem) {
            case EXPECTED_VALUE -> err("expected a JSON value");
            case BAD_LITERAL -> {
                p = valueStart;
                yield err("expected a JSON value");
            }
            case LEADING_ZERO -> err("invalid number (leading zero)");
            case BAD_NUMBER -> err("invalid number");
            default -> stringProblem(problem);
        };
    }

    // ---------------------------------------------------------------- errors

    /**
     * Column (1-based) of the next byte in the line. A record is one line by construction, so a raw line feed inside
     * one (only ever in a damaged record) is white space here, not the start of another line.
     */
    @Override
    public int column() {
        return p - lineOff + 1;
    }

    public JsonLineException err(String what) {
        String where = p >= end ? " at end of line" : " at column " + column();
        return new JsonLineException(what + where, false);
    }

    public JsonLineException duplicate(String name, String what) {
        return new JsonLineException("duplicate member \"" + name + "\" in " + what + " before column " + column(), false);
    }

    /**
     * After a line's top-level object (header or record): nothing but white space may follow, and its first four
     * members (the required ones, by their ids in {@code keys}) must all have been seen.
     */
    public void endOfTopLevelObject(int seen, JsonNames keys, String what) throws JsonLineException {
        if (endOfInput() < 0) {
            throw err("trailing characters after the " + what + " object");
        }
        for (int id = 0; id < 4; id++) {
            if ((seen & (1 << id)) == 0) {
                throw missing(keys.name(id), what);
            }
        }
    }

    public JsonLineException missing(String name, String what) {
        return new JsonLineException("missing member \"" + name + "\" in " + what, false);
    }
}
