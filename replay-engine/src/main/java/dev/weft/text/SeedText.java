package dev.weft.text;

/**
 * Seed text as the shim reads it (wire-and-abi.md §6): trimmed of Unicode white space, {@code 0x}
 * hex or decimal u64, each with an optional leading {@code +}. The value is an unsigned 64-bit
 * number held in a {@code long}.
 */
public final class SeedText {
    private SeedText() {
    }

    /** Thrown with the spec's reason text ("empty seed", "invalid hex seed", "invalid decimal seed"). */
    public static final class InvalidSeedException extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidSeedException(String reason) {
            super(reason);
        }
    }

    public static long parse(String text) throws InvalidSeedException {
        String t = trimUnicode(text);
        if (t.isEmpty()) {
            throw new InvalidSeedException("empty seed");
        }
        if (t.startsWith("0x") || t.startsWith("0X")) {
            return digits(t.substring(2), 16, "invalid hex seed");
        }
        return digits(t, 10, "invalid decimal seed");
    }

    private static long digits(String s, int radix, String reason) throws InvalidSeedException {
        String d = s.startsWith("+") ? s.substring(1) : s;
        if (d.isEmpty()) {
            throw new InvalidSeedException(reason);
        }
        for (int i = 0; i < d.length(); i++) {
            char c = d.charAt(i);
            boolean ok = (c >= '0' && c <= '9') || (radix == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
            if (!ok) {
                throw new InvalidSeedException(reason);
            }
        }
        try {
            return Long.parseUnsignedLong(d, radix);
        } catch (NumberFormatException overflow) {
            throw new InvalidSeedException(reason);
        }
    }

    /** Trims code points with the Unicode White_Space property (as the reference's trim does). */
    static String trimUnicode(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isWhiteSpace(s.codePointAt(start))) {
            start += Character.charCount(s.codePointAt(start));
        }
        while (end > start && isWhiteSpace(s.codePointBefore(end))) {
            end -= Character.charCount(s.codePointBefore(end));
        }
        return s.substring(start, end);
    }

    private static boolean isWhiteSpace(int cp) {
        return (cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0x85 || cp == 0xa0 || cp == 0x1680
                || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 || cp == 0x2029 || cp == 0x202f
                || cp == 0x205f || cp == 0x3000;
    }
}
