package dev.weft.fuzz;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import dev.weft.text.RustText;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Typed reading of small strict JSON documents (fuzz configs, regression files) over Jackson's streaming
 * parser, with messages that name what was found, what was expected and where
 * ({@code invalid type: string "x", expected u64 at line 3 column 17}).
 */
final class StrictJson {

    private static final JsonFactory FACTORY = JsonFactory.builder().build();
    private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);

    /** A problem in the document; the message is the full text without any prefix. */
    static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;

        Problem(String message) {
            super(message);
        }
    }

    private final JsonParser parser;

    private StrictJson(JsonParser parser) {
        this.parser = parser;
    }

    static StrictJson over(byte[] document) throws Problem {
        try {
            return new StrictJson(FACTORY.createParser(document));
        } catch (IOException e) {
            throw new Problem(e.getMessage());
        }
    }

    /** Advances to the next token; syntax errors become problems with their position. */
    JsonToken next() throws Problem {
        try {
            return parser.nextToken();
        } catch (StreamReadException e) {
            JsonLocation at = e.getLocation() != null ? e.getLocation() : parser.currentLocation();
            throw new Problem(firstLine(e.getOriginalMessage()) + position(at));
        } catch (IOException e) {
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

    String fieldName() throws Problem {
        try {
            return parser.currentName();
        } catch (IOException e) {
            throw new Problem(e.getMessage());
        }
    }

    /** Requires the document to end after the value just read. */
    void expectEnd() throws Problem {
        if (next() != null) throw at("trailing characters");
    }

    /** A problem located at the parser's current position. */
    Problem at(String message) {
        return new Problem(message + position(parser.currentLocation()));
    }

    /** A problem located at the closing quote of the member name just read (where serde points). */
    Problem atFieldName(String message, String name) {
        JsonLocation start = parser.currentTokenLocation();
        return new Problem(message + " at line " + start.getLineNr() + " column " + (start.getColumnNr() + name.length() + 1));
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
        try {
            return parser.getText();
        } catch (IOException e) {
            throw new Problem(e.getMessage());
        }
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
    Problem invalidType(String expected) throws Problem {
        return at("invalid type: " + describeCurrent() + ", expected " + expected);
    }

    private BigInteger integer(String expected) throws Problem {
        if (current() != JsonToken.VALUE_NUMBER_INT) throw invalidType(expected);
        try {
            return parser.getBigIntegerValue();
        } catch (IOException e) {
            throw new Problem(e.getMessage());
        }
    }

    private String describeCurrent() throws Problem {
        JsonToken t = current();
        try {
            if (t == null) return "end of input";
            switch (t) {
                case VALUE_STRING: return "string " + quote(parser.getText());
                case VALUE_NUMBER_INT: return "integer `" + parser.getBigIntegerValue() + "`";
                case VALUE_NUMBER_FLOAT: return "floating point `" + parser.getText() + "`";
                case VALUE_TRUE: return "boolean `true`";
                case VALUE_FALSE: return "boolean `false`";
                case VALUE_NULL: return "null";
                case START_ARRAY: return "sequence";
                case START_OBJECT: return "map";
                default: return t.asString() == null ? t.name() : t.asString();
            }
        } catch (IOException e) {
            throw new Problem(e.getMessage());
        }
    }

    private static String quote(String s) {
        return RustText.debugQuote(s);
    }

    private static String firstLine(String s) {
        if (s == null) return "invalid JSON";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    private static String position(JsonLocation at) {
        return " at line " + at.getLineNr() + " column " + Math.max(at.getColumnNr() - 1, 0);
    }
}
