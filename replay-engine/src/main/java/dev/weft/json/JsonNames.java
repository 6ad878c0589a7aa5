package dev.weft.json;

import java.nio.charset.StandardCharsets;

/**
 * A fixed list of names (the member names of one object shape, or the values of a tag) with their UTF-8 bytes, for
 * matching a name in a document without decoding it: {@link JsonCursor#key} compares the expected one 8 bytes at a
 * time. Immutable.
 */
public final class JsonNames {
    private final String[] names;
    final byte[][] bytes;
    /** Each name followed by its closing quote, for the one-pass match of an expected member name. */
    final byte[][] quoted;
    /**
     * The 16 bytes {@code "name":} (padded) as two little-endian words with masks, so the expected
     * member name is recognised with two word compares; {@code wordLen} is its length (0 if over 16).
     */
    final long[] word0, mask0, word1, mask1;
    final int[] wordLen;

    public JsonNames(String... names) {
        this.names = names;
        this.bytes = new byte[names.length][];
        this.quoted = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i].getBytes(StandardCharsets.UTF_8);
            quoted[i] = (names[i] + '"').getBytes(StandardCharsets.UTF_8);
        }
        word0 = new long[names.length];
        mask0 = new long[names.length];
        word1 = new long[names.length];
        mask1 = new long[names.length];
        wordLen = new int[names.length];
        for (int i = 0; i < names.length; i++) {
            byte[] full = ('"' + names[i] + "\":").getBytes(StandardCharsets.UTF_8);
            if (full.length > 16) {
                continue;
            }
            wordLen[i] = full.length;
            for (int j = 0; j < full.length; j++) {
                long bits = (long) (full[j] & 0xff) << (8 * (j & 7));
                long m = 0xffL << (8 * (j & 7));
                if (j < 8) {
                    word0[i] |= bits;
                    mask0[i] |= m;
                } else {
                    word1[i] |= bits;
                    mask1[i] |= m;
                }
            }
        }
    }

    /** Index of the name equal to b[off, off+len), trying {@code hint} (the expected one) first; -1 if none. */
    int find(byte[] b, int off, int len, int hint) {
        if (hint >= 0 && hint < bytes.length && same(bytes[hint], b, off, len)) {
            return hint;
        }
        for (int i = 0; i < bytes.length; i++) {
            if (i != hint && same(bytes[i], b, off, len)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean same(byte[] k, byte[] b, int off, int len) {
        if (k.length != len) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (k[i] != b[off + i]) {
                return false;
            }
        }
        return true;
    }

    /** Index of the name equal to b[off, off+len), or -1. */
    public int find(byte[] b, int off, int len) {
        for (int i = 0; i < bytes.length; i++) {
            byte[] k = bytes[i];
            if (same(k, b, off, len)) {
                return i;
            }
        }
        return -1;
    }

    /** Index of the name equal to {@code s}, or -1. */
    public int find(String s) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(s)) {
                return i;
            }
        }
        return -1;
    }

    /** The {@code i}-th name. */
    public String name(int i) {
        return names[i];
    }

    /** How many names there are. */
    public int size() {
        return names.length;
    }
}
