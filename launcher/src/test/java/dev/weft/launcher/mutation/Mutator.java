package dev.weft.launcher.mutation;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Seeded byte mutations of a valid input, weighted toward what hostile inputs look like: flipped and random bytes,
 * NUL and control characters inside strings, deleted and duplicated spans, huge and negative numbers, deep nesting,
 * a long run of one byte, a cut at a random point.
 */
public final class Mutator {
    private static final String[] SPLICES = {"\u0000", "\u0001", "\n", "\u007f", "\\u0000", "\\u001b", "-1", "1e999",
            "18446744073709551616", "99999999999999999999999", "\"", "{", "[", "}", "]", ",", ":", "null", "true", "0++1|",
            "|", "+", "\"\\ud800\"", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "0.5", "\uffff", "\u00e9"};

    private Mutator() {
    }

    public static byte[] mutate(byte[] seed, SplittableRandom r) {
        byte[] b = seed.clone();
        int rounds = 1 + r.nextInt(4);
        for (int i = 0; i < rounds; i++) {
            b = once(b, r);
        }
        return b;
    }

    private static byte[] once(byte[] b, SplittableRandom r) {
        if (b.length == 0) {
            return new byte[] {(byte) r.nextInt(256)};
        }
        int at = r.nextInt(b.length);
        switch (r.nextInt(8)) {
            case 0 -> {
                byte[] c = b.clone();
                c[at] ^= (byte) (1 << r.nextInt(8));
                return c;
            }
            case 1 -> {
                byte[] c = b.clone();
                c[at] = (byte) r.nextInt(256);
                return c;
            }
            case 2 -> {
                int len = 1 + r.nextInt(Math.min(32, b.length - at));
                return splice(b, at, len, new byte[0]);
            }
            case 3 -> {
                int len = 1 + r.nextInt(Math.min(64, b.length - at));
                byte[] dup = java.util.Arrays.copyOfRange(b, at, at + len);
                return splice(b, at, 0, dup);
            }
            case 4, 5 -> {
                return splice(b, at, r.nextBoolean() ? 1 : 0,
                        SPLICES[r.nextInt(SPLICES.length)].getBytes(StandardCharsets.UTF_8));
            }
            case 6 -> {
                byte[] run = new byte[1 + r.nextInt(5000)];
                java.util.Arrays.fill(run, (byte) " 0a[{\"\u0000".charAt(r.nextInt(7)));
                return splice(b, at, 0, run);
            }
            default -> {
                return java.util.Arrays.copyOf(b, at);
            }
        }
    }

    private static byte[] splice(byte[] b, int at, int remove, byte[] insert) {
        byte[] c = new byte[b.length - remove + insert.length];
        System.arraycopy(b, 0, c, 0, at);
        System.arraycopy(insert, 0, c, at, insert.length);
        System.arraycopy(b, at + remove, c, at + insert.length, b.length - at - remove);
        return c;
    }
}
