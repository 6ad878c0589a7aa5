package dev.weft.text;

/**
 * The handful of Rust standard-library text behaviours the reference Weft's parsers and messages rely on,
 * reproduced so that we accept exactly the same inputs and print exactly the same errors
 * (net-and-fault-model.md §1.1, §1.4, §1.6). Java's own trim/parseInt/parseDouble differ from all of them.
 */
public final class RustText {

    private RustText() {
    }

    // ---------------------------------------------------------------- trim

    /** Rust {@code str::trim}: strips leading and trailing characters with the Unicode White_Space property. */
    public static String trim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isWhiteSpace(s.charAt(start))) start++;
        while (end > start && isWhiteSpace(s.charAt(end - 1))) end--;
        return s.substring(start, end);
    }

    /** Unicode White_Space (all of them are in the BMP, so a char test is enough). */
    public static boolean isWhiteSpace(char c) {
        if (c <= 0x20) return c == 0x20 || (c >= 0x09 && c <= 0x0D);
        return c == 0x85 || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200A)
                || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
    }

    // ---------------------------------------------------------------- debug quoting

    /**
     * Rust {@code format!("{:?}", s)} for a string: wrapped in {@code "}, {@code "} and {@code \} escaped,
     * {@code \t \r \n \0} as such, other non-printable or grapheme-extending code points as
     * backslash-u{hex} (lowercase, no leading zeros), everything else (printable non-ASCII included) raw.
     *
     * <p>"Non-printable" follows Rust's {@code core::unicode::printable}: general categories Cc, Cf, Cs, Co,
     * Cn (unassigned), Zl, Zp and Zs other than U+0020. Rust also escapes Grapheme_Extend code points; we
     * approximate that property by categories Mn and Me plus the Other_Grapheme_Extend list. Category data
     * comes from the running JDK's Unicode version (Java 17: Unicode 13), which can differ from Rust's for
     * code points assigned since; lone surrogates (impossible in Rust strings) are escaped.
     */
    public static String debugQuote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2);
        sb.append('"');
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\n' -> sb.append("\\n");
                case 0 -> sb.append("\\0");
                default -> {
                    if (cp >= 0x20 && cp < 0x7F) {
                        sb.append((char) cp);
                    } else if (needsUnicodeEscape(cp)) {
                        sb.append("\\u{").append(Integer.toHexString(cp)).append('}');
                    } else {
                        sb.appendCodePoint(cp);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static boolean needsUnicodeEscape(int cp) {
        switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                    Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SPACE_SEPARATOR, Character.NON_SPACING_MARK, Character.ENCLOSING_MARK:
                return true;
            default:
                return isOtherGraphemeExtend(cp);
        }
    }

    /** Other_Grapheme_Extend code points that are not Mn/Me/Cf (PropList.txt). */
    private static boolean isOtherGraphemeExtend(int cp) {
        return cp == 0x09BE || cp == 0x09D7 || cp == 0x0B3E || cp == 0x0B57 || cp == 0x0BBE || cp == 0x0BD7
                || cp == 0x0CC2 || cp == 0x0CD5 || cp == 0x0CD6 || cp == 0x0D3E || cp == 0x0D57 || cp == 0x0DCF
                || cp == 0x0DDF || cp == 0x1B35 || cp == 0x302E || cp == 0x302F || cp == 0xFF9E || cp == 0xFF9F
                || cp == 0x1133E || cp == 0x11357 || cp == 0x114B0 || cp == 0x114BD || cp == 0x115AF
                || cp == 0x11930 || cp == 0x1D165 || (cp >= 0x1D16E && cp <= 0x1D172);
    }

    // ---------------------------------------------------------------- integers

    /** Rust's ParseIntError texts (its Display), which some messages quote verbatim (scenario-dsl.md §3). */
    public static final String INT_EMPTY = "cannot parse integer from empty string";
    public static final String INT_INVALID_DIGIT = "invalid digit found in string";
    public static final String INT_TOO_LARGE = "number too large to fit in target type";

    /** A failed integer parse: {@link #rustReason()} is the text Rust's ParseIntError would print. */
    public static final class IntParseException extends NumberFormatException {
        private static final long serialVersionUID = 1L;
        private final String rustReason;

        IntParseException(String input, String rustReason) {
            super("invalid number " + debugQuote(input));
            this.rustReason = rustReason;
        }

        public String rustReason() {
            return rustReason;
        }
    }

    /**
     * Rust {@code u64::from_str}: optional single {@code +}, then 1+ ASCII digits; overflow fails. Returns the u64 in a
     * long. Digits are taken left to right and the first problem wins, as in Rust: {@code 99999999999999999999x}
     * is too large, {@code 1x} has an invalid digit. The one u64 text parser of the project.
     */
    public static long parseU64(String s) {
        if (s.isEmpty()) throw new IntParseException(s, INT_EMPTY);
        int i = s.charAt(0) == '+' ? 1 : 0;
        if (i == s.length()) throw new IntParseException(s, INT_INVALID_DIGIT); // a lone "+"
        long v = 0;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw new IntParseException(s, INT_INVALID_DIGIT);
            // v * 10 + digit must stay below 2^64
            if (Long.compareUnsigned(v, 0x1999_9999_9999_9999L) > 0) throw new IntParseException(s, INT_TOO_LARGE);
            long times10 = v * 10;
            long next = times10 + (c - '0');
            if (Long.compareUnsigned(next, times10) < 0) throw new IntParseException(s, INT_TOO_LARGE);
            v = next;
        }
        return v;
    }

    /** Rust {@code u32::from_str} (same syntax as u64); the result is in [0, 2^32-1]. */
    public static long parseU32(String s) {
        int i = unsignedDigitsStart(s);
        long v = 0;
        for (; i < s.length(); i++) {
            v = v * 10 + (s.charAt(i) - '0');
            if (v > 0xFFFF_FFFFL) throw bad(s);
        }
        return v;
    }

    /** Rust {@code i32::from_str}: optional {@code +} or {@code -}, then 1+ ASCII digits; out of range fails. */
    public static int parseI32(String s) {
        boolean negative = !s.isEmpty() && s.charAt(0) == '-';
        int i = negative || (!s.isEmpty() && s.charAt(0) == '+') ? 1 : 0;
        if (i >= s.length()) throw bad(s);
        long v = 0;
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw bad(s);
            v = v * 10 + (c - '0');
            if (v > 0x8000_0000L) throw bad(s);
        }
        if (negative) v = -v;
        if (v > Integer.MAX_VALUE) throw bad(s);
        return (int) v;
    }

    /** Index of the first digit after an optional '+', having checked that all the rest are ASCII digits. */
    private static int unsignedDigitsStart(String s) {
        int i = !s.isEmpty() && s.charAt(0) == '+' ? 1 : 0;
        if (i >= s.length()) throw bad(s);
        for (int j = i; j < s.length(); j++) {
            char c = s.charAt(j);
            if (c < '0' || c > '9') throw bad(s);
        }
        return i;
    }

    // ---------------------------------------------------------------- f64

    /**
     * Rust {@code f64::from_str}: {@code [+-]} then {@code inf}, {@code infinity}, {@code nan} (any case) or
     * decimal digits with an optional point (at least one digit overall) and an optional exponent
     * {@code e[+-]digits}. Correctly rounded to nearest. Forms Java alone accepts (hex floats, {@code d}/{@code f}
     * suffixes, surrounding whitespace) are rejected before Java's correctly rounded parser sees the text.
     */
    public static double parseF64(String s) {
        int n = s.length();
        int i = 0;
        boolean negative = false;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            negative = s.charAt(i) == '-';
            i++;
        }
        String rest = s.substring(i);
        if (rest.equalsIgnoreCase("inf") || rest.equalsIgnoreCase("infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (rest.equalsIgnoreCase("nan")) return Double.NaN;
        int intDigits = 0;
        while (i < n && isDigit(s.charAt(i))) { i++; intDigits++; }
        int fracDigits = 0;
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) { i++; fracDigits++; }
        }
        if (intDigits + fracDigits == 0) throw bad(s);
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) i++;
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) { i++; expDigits++; }
            if (expDigits == 0) throw bad(s);
        }
        if (i != n) throw bad(s);
        return Double.parseDouble(s);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static NumberFormatException bad(String s) {
        return new NumberFormatException("invalid number " + debugQuote(s));
    }
}
