package dev.weft.log;

/** FNV-1a 64-bit, the hash of the integrity chain and the stream digest (weft-log-v2.md §8). */
public final class Fnv1a {

    public static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    public static final long PRIME = 0x100000001b3L;

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private Fnv1a() {
    }

    public static long update(long h, byte[] b) {
        return update(h, b, 0, b.length);
    }

    public static long update(long h, byte[] b, int off, int len) {
        for (int i = off, end = off + len; i < end; i++) {
            h = (h ^ (b[i] & 0xff)) * PRIME;
        }
        return h;
    }

    /**
     * Folds the same bytes into two independent hashes at once (the chain and the stream digest hash the
     * same canonical bytes from different starting values). The two multiply chains are independent, so
     * the CPU overlaps them and the second hash costs little extra. Returns {@code {h1', h2'}} in {@code out}.
     */
    static void update2(long[] out, byte[] b, int off, int len) {
        long h1 = out[0];
        long h2 = out[1];
        for (int i = off, end = off + len; i < end; i++) {
            int v = b[i] & 0xff;
            h1 = (h1 ^ v) * PRIME;
            h2 = (h2 ^ v) * PRIME;
        }
        out[0] = h1;
        out[1] = h2;
    }

    /** Exactly 16 lowercase, zero-padded hex digits. */
    public static String hex16(long h) {
        byte[] out = new byte[16];
        writeHex16(h, out, 0);
        return new String(out, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    static void writeHex16(long h, byte[] out, int off) {
        for (int i = 15; i >= 0; i--) {
            out[off + i] = HEX[(int) (h & 0xf)];
            h >>>= 4;
        }
    }

    /** True when the 16 bytes at {@code off} are exactly {@code hex16(h)} (lowercase only). */
    static boolean matchesHex16(long h, byte[] b, int off) {
        for (int i = 15; i >= 0; i--) {
            if (b[off + i] != HEX[(int) (h & 0xf)]) {
                return false;
            }
            h >>>= 4;
        }
        return true;
    }
}
