package dev.weft.launcher.campaign;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The few text encodings the campaign writes: JSON strings, shell words, XML text. */
public final class Json {
    private Json() {
    }

    static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    static String strings(List<String> l) {
        return l.stream().map(Json::str).collect(Collectors.joining(", ", "[", "]"));
    }

    static String map(Map<String, String> m) {
        return m.entrySet().stream().map(e -> str(e.getKey()) + ": " + str(e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    /** A word the shell reads back unchanged. */
    public static String shell(String w) {
        return w.matches("[A-Za-z0-9_./:=,@%+-]+") ? w : "'" + w.replace("'", "'\\''") + "'";
    }

    public static String shellJoin(List<String> words) {
        return words.stream().map(Json::shell).collect(Collectors.joining(" "));
    }

    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
