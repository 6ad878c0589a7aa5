package dev.weft.log;

/**
 * Rust {@code {:?}} quoting of a string, as the reference prints the format name in
 * {@code not a weft-log file (format="...")}: quotes, {@code \\ \" \t \r \n \0} escaped, other
 * non-printable characters as backslash-u-brace-hex, everything else raw. "Non-printable" follows the Unicode
 * general categories Rust treats as such (controls, format, separators other than space, unassigned,
 * private use, surrogates); grapheme-extender escaping of a leading combining mark is not reproduced.
 */
final class RustDebug {

    private RustDebug() {
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
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
                    if (printable(cp)) {
                        sb.appendCodePoint(cp);
                    } else {
                        sb.append("\\u{").append(Integer.toHexString(cp)).append('}');
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    private static boolean printable(int cp) {
        if (cp == ' ') {
            return true;
        }
        int type = Character.getType(cp);
        return type != Character.CONTROL && type != Character.FORMAT && type != Character.UNASSIGNED
                && type != Character.PRIVATE_USE && type != Character.SURROGATE
                && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR
                && type != Character.SPACE_SEPARATOR;
    }
}
