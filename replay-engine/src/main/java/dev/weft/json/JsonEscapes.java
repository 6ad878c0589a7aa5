package dev.weft.json;

/** The JSON string escape rules (RFC 8259 §7), one home for the tokenizer and the weft-log line parser. */
public final class JsonEscapes {

    private JsonEscapes() {
    }

    /** The character a one-letter escape {@code \c} stands for, or -1 (then only {@code \\u} may follow). */
    public static int simple(int c) {
        return switch (c) {
            case '"', '\\', '/' -> c;
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            default -> -1;
        };
    }

    /** The value of a hex digit of a {@code \\u} escape (either case), or -1. */
    public static int hexDigit(int c) {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}
