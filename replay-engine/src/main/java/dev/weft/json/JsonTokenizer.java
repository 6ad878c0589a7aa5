package dev.weft.json;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * A pull tokenizer over one JSON document held as UTF-8 bytes, with the accept rules of the reference's parser
 * (RFC 8259 exactly: no BOM, no comments, no trailing commas, no leading zeros, no lone surrogate escapes, no raw
 * control characters or invalid UTF-8 in strings). Nesting has no limit of its own and nothing here recurses, so
 * no document can overflow the stack; schema layers that must stop at the reference's recursion limit ask
 * {@link #depth()}. Errors are {@link JsonSyntaxError}s with our own wording and a line/column location.
 *
 * <p>The schema layers (fuzz config, regression file, scenario DSL) read it like a streaming parser:
 * {@link #nextToken()} then the current token's {@link #text()}, {@link #currentName()} and locations. The
 * weft-log schema reads lines through {@link JsonCursor} instead: zero-copy, member by member, for its hot path.
 * Numbers and strings are lexed by the {@link JsonLexer} primitives the cursor uses too; this class owns the
 * container grammar, line counting and serde's wording of every problem.
 */
public final class JsonTokenizer extends JsonLexer {

    private int line = 1;
    private int lineStart;

    private JsonToken current;
    private String text;
    private String name;
    private int tokenLine;
    private int tokenColumn;

    /** Open containers: true for an object; and whether a member/element has been read in each. */
    private boolean[] isObject = new boolean[16];
    private boolean[] hasItem = new boolean[16];
    private int depth;
    private boolean afterName;
    private boolean done;
    /** Reused to decode each string. */
    private final StringBuilder decoded = new StringBuilder(32);

    public JsonTokenizer(byte[] document) {
        this.b = document;
        this.end = document.length;
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

    /** Column (1-based) of the next byte to read, so {@code column() - 1} is the last byte read. */
    public int column() {
        return p - lineStart + 1;
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
        ws();
        if (done) {
            if (p < end) {
                throw error("trailing characters", p + 1);
            }
            current = null;
            return null;
        }
        if (depth > 0 && !afterName) {
            boolean object = isObject[depth - 1];
            int c = peek();
            if (c == (object ? '}' : ']')) {
                p++;
                return close(object);
            }
            if (hasItem[depth - 1]) {
                if (c != ',') {
                    throw unexpected(object ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element");
                }
                p++;
                ws();
                if (peek() == (object ? '}' : ']')) {
                    throw unexpected("trailing comma");
                }
            }
            hasItem[depth - 1] = true;
            if (object) {
                return memberName();
            }
        }
        afterName = false;
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

    private JsonToken close(boolean object) {
        depth--;
        if (depth == 0) {
            done = true;
        }
        current = object ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
        text = null;
        return current;
    }

    private JsonToken memberName() throws JsonSyntaxError {
        mark();
        if (peek() != '"') {
            throw unexpected("expected a member name in double quotes");
        }
        name = string();
        text = name;
        ws();
        if (peek() != ':') {
            throw unexpected("expected ':' after a member name");
        }
        p++;
        afterName = true;
        current = JsonToken.FIELD_NAME;
        return current;
    }

    private JsonToken value() throws JsonSyntaxError {
        mark();
        int c = peek();
        JsonToken t;
        switch (c) {
            case '{', '[' -> {
                p++;
                open(c == '{');
                t = c == '{' ? JsonToken.START_OBJECT : JsonToken.START_ARRAY;
                text = null;
                current = t;
                return t;
            }
            case '"' -> {
                text = string();
                t = JsonToken.VALUE_STRING;
            }
            case 't' -> t = literal("true", JsonToken.VALUE_TRUE);
            case 'f' -> t = literal("false", JsonToken.VALUE_FALSE);
            case 'n' -> t = literal("null", JsonToken.VALUE_NULL);
            case -1 -> throw error("EOF while parsing a value", p);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    t = number();
                } else {
                    throw unexpected("expected a JSON value");
                }
            }
        }
        if (depth == 0) {
            done = true;
        }
        current = t;
        return t;
    }

    private void open(boolean object) {
        if (depth == isObject.length) {
            isObject = java.util.Arrays.copyOf(isObject, depth * 2);
            hasItem = java.util.Arrays.copyOf(hasItem, depth * 2);
        }
        isObject[depth] = object;
        hasItem[depth] = false;
        depth++;
    }

    private JsonToken literal(String word, JsonToken t) throws JsonSyntaxError {
        if (!scanLiteral(word)) {
            throw unexpected("expected a JSON value");
        }
        text = word;
        return t;
    }

    private JsonToken number() throws JsonSyntaxError {
        int s = p;
        int kind = scanNumber();
        if (kind == LEADING_ZERO) {
            throw unexpected("invalid number (leading zero)");
        }
        if (kind < 0) {
            throw unexpected("invalid number");
        }
        text = new String(b, s, p - s, StandardCharsets.US_ASCII);
        return kind == NUMBER_INT ? JsonToken.VALUE_NUMBER_INT : JsonToken.VALUE_NUMBER_FLOAT;
    }

    /** A string (p at its opening quote), decoded; escapes and UTF-8 checked as the reference checks them. */
    private String string() throws JsonSyntaxError {
        p++;
        StringBuilder sb = decoded;
        sb.setLength(0);
        int problem = scanString(sb);
        if (problem < 0) {
            throw stringProblem(problem);
        }
        return sb.toString();
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

    // ---------------------------------------------------------------- bytes and locations

    private int peek() {
        return p < end ? b[p] & 0xff : -1;
    }

    private void ws() {
        while (p < end) {
            byte c = b[p];
            if (c == '\n') {
                line++;
                lineStart = p + 1;
            } else if (c != ' ' && c != '\t' && c != '\r') {
                return;
            }
            p++;
        }
    }

    private void mark() {
        tokenLine = line;
        tokenColumn = p - lineStart + 1;
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
