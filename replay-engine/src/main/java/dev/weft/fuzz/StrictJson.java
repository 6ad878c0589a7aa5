package dev.weft.fuzz;

import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import dev.weft.text.RustText;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed reading of small strict JSON documents (fuzz configs, regression files): a thin schema layer over
 * {@link JsonTokenizer}, with messages that name what was found, what was expected and where
 * ({@code invalid type: string "x", expected u64 at line 3 column 17}).
 */
final class StrictJson {

    private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);

    /** A problem in the document; the message is the full text without any prefix. */
    static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;

        Problem(String message) {
            super(message);
        }
    }

    private final JsonTokenizer parser;

    private StrictJson(JsonTokenizer parser) {
        this.parser = parser;
    }

    static StrictJson over(byte[] document) {
        return new StrictJson(new JsonTokenizer(document));
    }

    /** Advances to the next token; syntax errors become problems with their position. */
    JsonToken next() throws Problem {
        try {
            return parser.nextToken();
        } catch (JsonSyntaxError e) {
            throw new Problem(e.getMessage());
        }
    }

    /** Advances and requires a value to start (not the end of the input). */
    JsonToken nextValue() throws Problem {
        JsonToken t = next();
        if (t == null) throw at("EOF while parsing a value");
        return t;
    }

    JsonToken current() {
        return parser.currentToken();
    }

    String fieldName() {
        return parser.currentName();
    }

    /** Requires the document to end after the value just read. */
    void expectEnd() throws Problem {
        if (next() != null) throw at("trailing characters");
    }

    /** A problem located at the last byte read. */
    Problem at(String message) {
        return new Problem(message + " at line " + parser.line() + " column " + Math.max(parser.column() - 1, 0));
    }

    /** A problem located at the closing quote of the member name just read (where serde points). */
    Problem atFieldName(String message, String name) {
        return new Problem(message + " at line " + parser.tokenLine() + " column "
                + (parser.tokenColumn() + name.getBytes(StandardCharsets.UTF_8).length + 1));
    }

    long u64() throws Problem {
        BigInteger v = integer("u64");
        if (v.signum() < 0 || v.compareTo(U64_LIMIT) >= 0) throw at("invalid value: integer `" + v + "`, expected u64");
        return v.longValue();
    }

    long u32() throws Problem {
        BigInteger v = integer("u32");
        if (v.signum() < 0 || v.bitLength() > 32) throw at("invalid value: integer `" + v + "`, expected u32");
        return v.longValue();
    }

    String string() throws Problem {
        if (current() != JsonToken.VALUE_STRING) throw invalidType("a string");
        return parser.text();
    }

    /** A string or null (serde's {@code Option<String>}). */
    String optionalString() throws Problem {
        return current() == JsonToken.VALUE_NULL ? null : string();
    }

    boolean bool() throws Problem {
        JsonToken t = current();
        if (t == JsonToken.VALUE_TRUE) return true;
        if (t == JsonToken.VALUE_FALSE) return false;
        throw invalidType("a boolean");
    }

    List<String> stringArray() throws Problem {
        if (current() != JsonToken.START_ARRAY) throw invalidType("a sequence");
        List<String> out = new ArrayList<>();
        while (nextValue() != JsonToken.END_ARRAY) out.add(string());
        return out;
    }

    List<Long> u64Array() throws Problem {
        if (current() != JsonToken.START_ARRAY) throw invalidType("a sequence");
        List<Long> out = new ArrayList<>();
        while (nextValue() != JsonToken.END_ARRAY) out.add(u64());
        return out;
    }

    /** "invalid type: <what was found>, expected <expected>" at the current position. */
    Problem invalidType(String expected) {
        return at("invalid type: " + describeCurrent() + ", expected " + expected);
    }

    private BigInteger integer(String expected) throws Problem {
        if (current() != JsonToken.VALUE_NUMBER_INT) throw invalidType(expected);
        return parser.bigInteger();
    }

    private String describeCurrent() {
        JsonToken t = current();
        if (t == null) return "end of input";
        switch (t) {
            case VALUE_STRING: return "string " + RustText.debugQuote(parser.text());
            case VALUE_NUMBER_INT: return "integer `" + parser.bigInteger() + "`";
            case VALUE_NUMBER_FLOAT: return "floating point `" + parser.text() + "`";
            case VALUE_TRUE: return "boolean `true`";
            case VALUE_FALSE: return "boolean `false`";
            case VALUE_NULL: return "null";
            case START_ARRAY: return "sequence";
            case START_OBJECT: return "map";
            default: return t.name();
        }
    }
}
