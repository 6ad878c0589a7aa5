package dev.weft.history;

import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import dev.weft.log.CanonicalJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a history in the JSON-lines format of docs/history.md: one object per line with {@code process},
 * {@code type}, {@code f}, {@code time} and optionally {@code key}, {@code value} and {@code node}; blank lines are
 * skipped, other members ignored (writers may add their own, e.g. an error text). Every problem is one
 * {@link HistoryFormatException} naming the file and line.
 */
public final class HistoryReader {

    /** Values nest at most this deep (they are copied recursively). */
    private static final int MAX_DEPTH = 32;

    private HistoryReader() {
    }

    /** Every event of the file, in file order. */
    public static List<HistoryEvent> read(Path file) throws HistoryFormatException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new HistoryFormatException(file + ": cannot read: " + (e.getMessage() == null ? e : e.getMessage()));
        }
        return parse(file.toString(), bytes);
    }

    /** Every event of {@code bytes}, {@code name} naming them in messages. */
    public static List<HistoryEvent> parse(String name, byte[] bytes) throws HistoryFormatException {
        List<HistoryEvent> events = new ArrayList<>();
        int line = 0;
        int start = 0;
        while (start < bytes.length) {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n') {
                end++;
            }
            line++;
            int to = end > start && bytes[end - 1] == '\r' ? end - 1 : end;
            if (!blank(bytes, start, to)) {
                byte[] one = java.util.Arrays.copyOfRange(bytes, start, to);
                try {
                    events.add(parseLine(line, one));
                } catch (JsonSyntaxError e) {
                    throw new HistoryFormatException(name + ":" + line + ": not JSON: " + e.what() + " at column "
                            + e.column());
                } catch (Problem e) {
                    throw new HistoryFormatException(name + ":" + line + ": " + e.getMessage());
                }
            }
            start = end + 1;
        }
        return events;
    }

    /** What is wrong with one line (the caller adds file and line). */
    static final class Problem extends Exception {
        private static final long serialVersionUID = 1L;

        Problem(String message) {
            super(message, null, false, false);
        }
    }

    private static boolean blank(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != ' ' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }

    static HistoryEvent parseLine(int line, byte[] bytes) throws JsonSyntaxError, Problem {
        JsonTokenizer t = new JsonTokenizer(bytes);
        if (t.nextToken() != JsonToken.START_OBJECT) {
            throw new Problem("expected a JSON object");
        }
        Long process = null;
        Long node = null;
        Long time = null;
        EventType type = null;
        OpFunction f = null;
        String key = null;
        HistoryValue value = HistoryValue.NULL;
        Set<String> seen = new HashSet<>();
        for (JsonToken tok = t.nextToken(); tok != JsonToken.END_OBJECT; tok = t.nextToken()) {
            String member = t.currentName();
            if (!seen.add(member)) {
                throw new Problem("member \"" + member + "\" appears twice");
            }
            JsonToken v = t.nextToken();
            switch (member) {
                case "process" -> process = count(t, v, "process");
                case "node" -> node = count(t, v, "node");
                case "time" -> time = count(t, v, "time");
                case "type" -> {
                    type = v == JsonToken.VALUE_STRING ? EventType.of(t.text()) : null;
                    if (type == null) {
                        throw new Problem("\"type\" must be \"invoke\", \"ok\", \"fail\" or \"info\", not " + shown(t, v));
                    }
                }
                case "f" -> {
                    f = v == JsonToken.VALUE_STRING ? OpFunction.of(t.text()) : null;
                    if (f == null) {
                        throw new Problem("\"f\" must be \"read\", \"write\", \"cas\", \"add\" or \"append\", not "
                                + shown(t, v));
                    }
                }
                case "key" -> {
                    if (v == JsonToken.VALUE_STRING || v == JsonToken.VALUE_NUMBER_INT) {
                        key = t.text();
                    } else if (v != JsonToken.VALUE_NULL) {
                        throw new Problem("\"key\" must be a string or an integer, not " + shown(t, v));
                    }
                }
                case "value" -> value = value(t, v);
                default -> t.skipChildren();
            }
        }
        if (t.nextToken() != null) {
            throw new Problem("trailing characters after the object");
        }
        if (process == null) {
            throw new Problem("missing \"process\"");
        }
        if (type == null) {
            throw new Problem("missing \"type\"");
        }
        if (f == null) {
            throw new Problem("missing \"f\"");
        }
        if (time == null) {
            throw new Problem("missing \"time\" (the virtual time of the event in ns)");
        }
        if (f == OpFunction.CAS && (type == EventType.INVOKE)
                && !(value.isArray() && value.elements().size() == 2)) {
            throw new Problem("a cas takes [old, new] as its value, not " + value.text());
        }
        return new HistoryEvent(line, node == null ? -1 : node, process, type, f, key, value, time);
    }

    private static long count(JsonTokenizer t, JsonToken v, String member) throws Problem {
        if (v != JsonToken.VALUE_NUMBER_INT || t.text().startsWith("-")) {
            throw new Problem("\"" + member + "\" must be a non-negative integer, not " + shown(t, v));
        }
        try {
            return Long.parseLong(t.text());
        } catch (NumberFormatException e) {
            throw new Problem("\"" + member + "\" is too large: " + t.text());
        }
    }

    private static String shown(JsonTokenizer t, JsonToken v) {
        return switch (v) {
            case VALUE_STRING -> CanonicalJson.string(t.text());
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            default -> t.text();
        };
    }

    /** The value starting at the current token, as canonical text (and elements, for an array). */
    private static HistoryValue value(JsonTokenizer t, JsonToken v) throws JsonSyntaxError, Problem {
        if (v == JsonToken.START_ARRAY) {
            List<String> elements = new ArrayList<>();
            for (JsonToken e = t.nextToken(); e != JsonToken.END_ARRAY; e = t.nextToken()) {
                StringBuilder sb = new StringBuilder();
                canonical(t, e, sb);
                elements.add(sb.toString());
            }
            return HistoryValue.array(elements);
        }
        StringBuilder sb = new StringBuilder();
        canonical(t, v, sb);
        return HistoryValue.scalar(sb.toString());
    }

    /** Appends the compact JSON text of the value starting at token {@code v} (objects: members in file order). */
    private static void canonical(JsonTokenizer t, JsonToken v, StringBuilder sb) throws JsonSyntaxError, Problem {
        switch (v) {
            case VALUE_STRING -> sb.append(CanonicalJson.string(t.text()));
            case START_ARRAY, START_OBJECT -> {
                if (t.depth() > MAX_DEPTH) {
                    throw new Problem("\"value\" nests deeper than " + MAX_DEPTH + " levels");
                }
                boolean object = v == JsonToken.START_OBJECT;
                JsonToken close = object ? JsonToken.END_OBJECT : JsonToken.END_ARRAY;
                sb.append(object ? '{' : '[');
                boolean first = true;
                for (JsonToken e = t.nextToken(); e != close; e = t.nextToken()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    if (object) {
                        sb.append(CanonicalJson.string(t.currentName())).append(':');
                        e = t.nextToken();
                    }
                    canonical(t, e, sb);
                }
                sb.append(object ? '}' : ']');
            }
            default -> sb.append(t.text());
        }
    }
}
