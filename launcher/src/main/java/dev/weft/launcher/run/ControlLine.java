package dev.weft.launcher.run;

import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import dev.weft.log.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One message of the host agent's control channel: a flat JSON object on one line whose members are strings,
 * integers, booleans, arrays of strings or objects of strings (docs/broker.md, "Several hosts"). Members are
 * written in insertion order, so a message's text is a function of what it says.
 */
final class ControlLine {
    /** Longest line either side accepts (an output line of a node travels as one message). */
    static final int MAX_LINE = 4 * 1024 * 1024;
    /** Longest line of the handshake (hello, auth, verdict): a peer not yet authenticated gets no more. */
    static final int MAX_HANDSHAKE_LINE = 4096;

    private final Map<String, Object> members;

    private ControlLine(Map<String, Object> members) {
        this.members = members;
    }

    static ControlLine of(Object... keyValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return new ControlLine(m);
    }

    String string(String key) throws BadLineException {
        return member(key, String.class, "a string");
    }

    String stringOr(String key, String fallback) {
        return members.get(key) instanceof String s ? s : fallback;
    }

    long number(String key) throws BadLineException {
        return member(key, Long.class, "an integer");
    }

    long numberOr(String key, long fallback) {
        return members.get(key) instanceof Long l ? l : fallback;
    }

    boolean has(String key) {
        return members.containsKey(key);
    }

    boolean flag(String key) {
        return Boolean.TRUE.equals(members.get(key));
    }

    @SuppressWarnings("unchecked") // parse puts only strings in a member's list
    List<String> strings(String key) throws BadLineException {
        return member(key, List.class, "an array of strings");
    }

    @SuppressWarnings("unchecked") // parse puts only strings in a member's object
    Map<String, String> stringMap(String key) throws BadLineException {
        return member(key, Map.class, "an object of strings");
    }

    /** The member {@code key}, which must be a {@code type} ({@code what} says so in the error). */
    private <T> T member(String key, Class<T> type, String what) throws BadLineException {
        Object v = members.get(key);
        if (!type.isInstance(v)) {
            throw new BadLineException("member \"" + key + "\" must be " + what);
        }
        return type.cast(v);
    }

    /** The line's text, without the newline. */
    String text() {
        StringBuilder sb = new StringBuilder();
        value(sb, members);
        return sb.toString();
    }

    private static void value(StringBuilder sb, Object v) {
        if (v instanceof String s) {
            CanonicalJson.appendString(sb, s);
        } else if (v instanceof Long || v instanceof Integer || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? "" : ",");
                CanonicalJson.appendString(sb, (String) l.get(i));
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> m) {
            // the line itself, or a member's object of strings
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(first ? "" : ",");
                first = false;
                CanonicalJson.appendString(sb, (String) e.getKey());
                sb.append(':');
                value(sb, e.getValue());
            }
            sb.append('}');
        } else {
            throw new IllegalArgumentException("unsupported control value " + v);
        }
    }

    /** Parses one line; the exception says what is wrong with it. */
    static ControlLine parse(String line) throws BadLineException {
        JsonTokenizer t = new JsonTokenizer(line.getBytes(StandardCharsets.UTF_8));
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            if (t.nextToken() != JsonToken.START_OBJECT) {
                throw new BadLineException("not a JSON object");
            }
            while (t.nextToken() == JsonToken.FIELD_NAME) {
                String key = t.currentName();
                JsonToken v = t.nextToken();
                switch (v) {
                    case VALUE_STRING -> m.put(key, t.text());
                    case VALUE_NUMBER_INT -> {
                        try {
                            m.put(key, Long.parseLong(t.text()));
                        } catch (NumberFormatException e) {
                            throw new BadLineException("member \"" + key + "\": integer out of range");
                        }
                    }
                    case VALUE_TRUE -> m.put(key, Boolean.TRUE);
                    case VALUE_FALSE -> m.put(key, Boolean.FALSE);
                    case START_ARRAY -> {
                        List<String> l = new ArrayList<>();
                        while (t.nextToken() == JsonToken.VALUE_STRING) {
                            l.add(t.text());
                        }
                        if (t.currentToken() != JsonToken.END_ARRAY) {
                            throw new BadLineException("member \"" + key + "\": arrays hold strings only");
                        }
                        m.put(key, l);
                    }
                    case START_OBJECT -> {
                        Map<String, String> o = new LinkedHashMap<>();
                        while (t.nextToken() == JsonToken.FIELD_NAME) {
                            String k = t.currentName();
                            if (t.nextToken() != JsonToken.VALUE_STRING) {
                                throw new BadLineException("member \"" + key + "\": objects hold strings only");
                            }
                            o.put(k, t.text());
                        }
                        m.put(key, o);
                    }
                    default -> throw new BadLineException("member \"" + key + "\": unsupported value");
                }
            }
            if (t.currentToken() != JsonToken.END_OBJECT || t.nextToken() != null) {
                throw new BadLineException("not one JSON object");
            }
        } catch (JsonSyntaxError e) {
            throw new BadLineException(e.getMessage());
        }
        return new ControlLine(m);
    }

    /** A control line that is not what the protocol allows. */
    static final class BadLineException extends Exception {
        private static final long serialVersionUID = 1L;

        BadLineException(String message) {
            super(message);
        }
    }
}
