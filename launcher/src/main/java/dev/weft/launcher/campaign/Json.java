package dev.weft.launcher.campaign;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The few text encodings the campaign writes: JSON strings and XML text (shell words: {@link dev.weft.text.ShellWords}). */
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

    static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
