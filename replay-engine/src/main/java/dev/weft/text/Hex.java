package dev.weft.text;

/** Hex payload text as weft-logs carry it: two hex digits per byte. */
public final class Hex {

    private static final char[] LOWER = "0123456789abcdef".toCharArray();

    private Hex() {
    }

    /** Decodes pairs of hex digits (either case); null if the length is odd or a character is not a hex digit. */
    public static byte[] decode(String s) {
        int n = s.length();
        if ((n & 1) != 0) return null;
        byte[] out = new byte[n >> 1];
        for (int i = 0; i < n; i += 2) {
            int hi = digit(s.charAt(i));
            int lo = digit(s.charAt(i + 1));
            if ((hi | lo) < 0) return null;
            out[i >> 1] = (byte) ((hi << 4) | lo);
        }
        return out;
    }

    /** Lowercase hex, two digits per byte (the form the core produces for delivered payloads). */
    public static String encodeLower(byte[] b) {
        char[] out = new char[b.length * 2];
        for (int i = 0; i < b.length; i++) {
            out[2 * i] = LOWER[(b[i] >> 4) & 0xF];
            out[2 * i + 1] = LOWER[b[i] & 0xF];
        }
        return new String(out);
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    }
}
