package dev.weft.json;

/**
 * Strict UTF-8 validation (shortest forms only, no surrogates, at most U+10FFFF), as Rust's str requires: the one
 * home of that rule for the log reader and every JSON schema layer.
 */
public final class Utf8 {

    private Utf8() {
    }

    public static boolean isValid(byte[] b) {
        return isValid(b, 0, b.length);
    }

    public static boolean isValid(byte[] b, int off, int len) {
        return firstInvalid(b, off, len) < 0;
    }

    /** The offset of the first byte that does not start a valid sequence in b[off, off+len), or -1 if none. */
    public static int firstInvalid(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        while (i < end) {
            int c = b[i];
            if (c >= 0) {
                i++;
                continue;
            }
            int n = sequenceLength(b, i, end);
            if (n == 0) {
                return i;
            }
            i += n;
        }
        return -1;
    }

    /** Length of the valid multi-byte sequence starting at i (lead byte >= 0x80), or 0 if invalid. */
    public static int sequenceLength(byte[] b, int i, int end) {
        int c = b[i] & 0xff;
        int n;
        int lo = 0x80; // allowed range of the second byte: narrower after E0, ED, F0, F4 (overlong, surrogate, > U+10FFFF)
        int hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF) {
            n = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            lo = c == 0xE0 ? 0xA0 : lo;
            hi = c == 0xED ? 0x9F : hi;
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            lo = c == 0xF0 ? 0x90 : lo;
            hi = c == 0xF4 ? 0x8F : hi;
        } else {
            return 0;
        }
        if (i + n > end) {
            return 0;
        }
        int c1 = b[i + 1] & 0xff;
        if (c1 < lo || c1 > hi) {
            return 0;
        }
        for (int k = 2; k < n; k++) {
            if (!cont(b[i + k])) {
                return 0;
            }
        }
        return n;
    }

    /** The code point of a sequence already checked by {@link #sequenceLength}. */
    public static int decode(byte[] b, int i, int n) {
        int c = b[i] & 0xff;
        return switch (n) {
            case 2 -> ((c & 0x1F) << 6) | (b[i + 1] & 0x3F);
            case 3 -> ((c & 0x0F) << 12) | ((b[i + 1] & 0x3F) << 6) | (b[i + 2] & 0x3F);
            default -> ((c & 0x07) << 18) | ((b[i + 1] & 0x3F) << 12) | ((b[i + 2] & 0x3F) << 6) | (b[i + 3] & 0x3F);
        };
    }

    private static boolean cont(byte b) {
        return (b & 0xC0) == 0x80;
    }
}
