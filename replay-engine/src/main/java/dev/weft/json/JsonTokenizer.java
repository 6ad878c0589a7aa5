package dev.weft.json;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * Pull tokens from one JSON document held as UTF-8 bytes: the value-building layer over {@link JsonScanner} for the
 * config schemas (fuzz config, regression file, fuzz shards, scenario DSL, campaign configs, the run panel's control
 * lines). The accept rules are the scanner's, the reference parser's (RFC 8259 exactly: no BOM, no comments, no
 * trailing commas, no leading zeros, no lone surrogate escapes, no raw control characters or invalid UTF-8 in
 * strings). Nesting has no limit of its own and nothing here recurses, so no document can overflow the stack; schema
 * layers that must stop at the reference's recursion limit ask {@link #depth()} or {@link #skipChildren(int)}.
 *
 * <p>A schema layer reads it like a streaming parser: {@link #nextToken()} then the current token's {@link #text()},
 * {@link #currentName()} and locations. This class only builds token values and words the scanner's problems in
 * serde's terms: {@link JsonSyntaxError}s located by line and column. The weft-log schema reads lines through
 * {@link JsonCursor} instead, zero-copy, over the same scanner.
 */
public final class JsonTokenizer extends JsonScanner {

    private JsonToken current;
    private String text;
    private String name;
    private int tokenLine;
    private int tokenColumn;
    /** A member name was just read: its value comes next. */
    private boolean afterName;
    /** The top-level value is complete: only white space may follow. */
    private boolean done;
    /** Reused to decode each string. */
    private final StringBuilder decoded = new StringBuilder(32);

    public JsonTokenizer(byte[] document) {
        input(document, 0, document.length);
    }

    public static JsonTokenizer of(String document) {
        return new JsonTokenizer(document.getBytes(StandardCharsets.UTF_8));
    }

    public JsonToken currentToken() {
        return current;
    }

    /** The text of the current string, name or number token (a literal's word for true/false/null). */
    public String text() {
        return text;
    }

    /** The member name of the current FIELD_NAME token, or of the member whose value is the current token. */
    public String currentName() {
        return name;
    }

    /** Number of containers open after the current token. */
    public int depth() {
        return depth;
    }

    /** Line (1-based) of the first byte of the current token. */
    public int tokenLine() {
        return tokenLine;
    }

    /** Column (1-based, in bytes) of the first byte of the current token. */
    public int tokenColumn() {
        return tokenColumn;
    }

    /** Line of the next byte to read. */
    public int line() {
        return line;
    }

    /** The current integer token's value. */
    public BigInteger bigInteger() {
        return new BigInteger(text);
    }

    /**
     * The next token, or null after the complete top-level value (anything but white space after it is an
     * error, "trailing characters"). At the start, a document with no value is "EOF while parsing a value".
     */
    public JsonToken nextToken() throws JsonSyntaxError {
        if (done) {
            if (endOfInput() < 0) {
                throw error("trailing characters", p + 1);
            }
            current = null;
            return null;
        }
        if (depth > 0 && !afterName) {
            int item = nextItem();
            if (item == CLOSED) {
                return token(depth == 0, isObject[depth] ? JsonToken.END_OBJECT : JsonToken.END_ARRAY, null);
            }
            if (item == TRAILING_COMMA) {
                throw unexpected("trailing comma");
            }
            if (item < 0) {
                throw unexpected(isObject[depth - 1] ? "expected ',' or '}' after an object member"
                        : "expected ',' or ']' after an array element");
            }
            if (isObject[depth - 1]) {
                return memberName();
            }
        }
        afterName = false;
        ws();
        return value();
    }

    /** If the current token opens a container, reads past the one that closes it (iteratively, any depth). */
    public void skipChildren() throws JsonSyntaxError {
        skipChildren(Integer.MAX_VALUE);
    }

    /** Like {@link #skipChildren()}, but more than {@code maxDepth} open containers is "recursion limit exceeded". */
    public void skipChildren(int maxDepth) throws JsonSyntaxError {
        if (current != JsonToken.START_OBJECT && current != JsonToken.START_ARRAY) {
            return;
        }
        int until = depth - 1;
        while (depth > until) {
            if (depth > maxDepth) {
                throw error("recursion limit exceeded", p);
            }
            if (nextToken() == null) {
                throw error("EOF while parsing a value", p);
            }
        }
    }

    /** An error at the current token (where a schema layer found it unacceptable). */
    public JsonSyntaxError errorAtToken(String what) {
        return new JsonSyntaxError(what, tokenLine, tokenColumn);
    }

    // ---------------------------------------------------------------- tokens

    private JsonToken token(boolean last, JsonToken t, String value) {
        if (last) {
            done = true;
        }
        text = value;
        current = t;
        return t;
    }

    private JsonToken memberName() throws JsonSyntaxError {
        mark();
        if (p >= end || b[p] != '"') {
            throw unexpected("expected a member name in double quotes");
        }
        p++;
        decoded.setLength(0);
        int problem = scanString(decoded);
        if (problem < 0) {
            throw stringProblem(problem);
        }
        name = decoded.toString();
        if (colon() < 0) {
            throw unexpected("expected ':' after a member name");
        }
        afterName = true;
        return token(false, JsonToken.FIELD_NAME, name);
    }

    private JsonToken value() throws JsonSyntaxError {
        mark();
        decoded.setLength(0);
        int kind = scanValue(decoded);
        return switch (kind) {
            case OBJECT, ARRAY -> {
                open();
                yield token(false, kind == OBJECT ? JsonToken.START_OBJECT : JsonToken.START_ARRAY, null);
            }
            case STRING -> token(depth == 0, JsonToken.VALUE_STRING, decoded.toString());
            case NUMBER_INT, NUMBER_FLOAT -> token(depth == 0,
                    kind == NUMBER_INT ? JsonToken.VALUE_NUMBER_INT : JsonToken.VALUE_NUMBER_FLOAT,
                    new String(b, valueStart, p - valueStart, StandardCharsets.US_ASCII));
            case TRUE -> token(depth == 0, JsonToken.VALUE_TRUE, "true");
            case FALSE -> token(depth == 0, JsonToken.VALUE_FALSE, "false");
            case NULL -> token(depth == 0, JsonToken.VALUE_NULL, "null");
            case EXPECTED_VALUE, BAD_LITERAL -> throw unexpected("expected a JSON value");
            case LEADING_ZERO -> throw unexpected("invalid number (leading zero)");
            case BAD_NUMBER -> throw unexpected("invalid number");
            default -> throw stringProblem(kind);
        };
    }

    /**
     * serde's words and columns for a problem {@link #scanString} found. Where serde has read past the offending byte
     * (a control character, the letter of a bad escape), p moves past it too, so {@link #column()} agrees.
     */
    private JsonSyntaxError stringProblem(int problem) {
        return switch (problem) {
            case STRING_EOF, HEX_EOF -> error("EOF while parsing a string", p);
            case CONTROL_CHARACTER -> error("control character (\\u" + String.format("%04x", (int) b[p++]) + ") found while parsing a string", p);
            case INVALID_UTF8 -> error("invalid UTF-8 in a string", p + 1);
            case ESCAPE_EOF -> error("EOF while parsing a string", ++p);
            case INVALID_ESCAPE -> error("invalid escape", ++p);
            case BAD_HEX -> error("invalid escape", p + 1);
            case LONE_LEADING_SURROGATE, LONE_TRAILING_SURROGATE ->
                    error("lone surrogate in string (\\u" + Integer.toHexString(surrogate) + ")", p);
            default -> throw new IllegalStateException("not a string problem: " + problem);
        };
    }

    // ---------------------------------------------------------------- locations

    private int peek() {
        return p < end ? b[p] & 0xff : -1;
    }

    private void mark() {
        tokenLine = line;
        tokenColumn = column();
    }

    /** The byte at p is not what the grammar allows here. */
    private JsonSyntaxError unexpected(String expected) {
        int c = peek();
        if (c < 0) {
            return error("EOF while parsing a value", p);
        }
        String shown = c >= 0x20 && c < 0x7F ? "'" + (char) c + "'" : String.format("byte 0x%02x", c);
        return error("Unexpected character " + shown + ": " + expected, p + 1);
    }

    /** An error whose column is that of byte index {@code at - 1} (serde's convention: the last byte read). */
    private JsonSyntaxError error(String what, int at) {
        return new JsonSyntaxError(what, line, Math.max(at - lineStart, 0));
    }
}
