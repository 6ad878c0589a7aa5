package dev.weft.diff;

/**
 * A datagram's payload as a person reads it: quoted text when every byte is printable ASCII (or tab / newline),
 * otherwise its length and hex; long payloads are cut with their length named.
 */
public final class PayloadWords {

    /** Payloads longer than this many characters (text) or bytes (hex) are cut. */
    static final int LIMIT = 96;

    private PayloadWords() {
    }

    public static String of(String hex) {
        int n = hex.length() / 2;
        boolean text = n > 0;
        for (int i = 0; i < n && text; i++) {
            int b = Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
            text = (b >= 0x20 && b < 0x7f) || b == '\n' || b == '\t';
        }
        if (!text) {
            String shown = hex.length() > 2 * LIMIT ? hex.substring(0, 2 * LIMIT) + "…" : hex;
            return n + (n == 1 ? " byte " : " bytes ") + shown;
        }
        StringBuilder s = new StringBuilder("\"");
        for (int i = 0; i < Math.min(n, LIMIT); i++) {
            int b = Integer.parseInt(hex, 2 * i, 2 * i + 2, 16);
            switch (b) {
                case '\n' -> s.append("\\n");
                case '\t' -> s.append("\\t");
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                default -> s.append((char) b);
            }
        }
        s.append('"');
        if (n > LIMIT) s.append("… (").append(n).append(" bytes)");
        return s.toString();
    }
}
