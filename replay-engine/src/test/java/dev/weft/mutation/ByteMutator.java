package dev.weft.mutation;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded structure-blind mutations of a byte string: bit flips, hostile bytes (invalid UTF-8, controls, JSON
 * punctuation), dictionary tokens of the format, deletions, duplications, truncation, numbers at the edges of
 * u32/u64/f64, and splices from another seed of the same format. One to three per case; the same random stream
 * gives the same mutant.
 */
final class ByteMutator {

    private static final byte[] HOSTILE_BYTES = {0x00, 0x01, 0x1f, 0x7f, (byte) 0x80, (byte) 0xbf, (byte) 0xc0, (byte) 0xc3,
            (byte) 0xe2, (byte) 0xed, (byte) 0xf0, (byte) 0xf4, (byte) 0xf5, (byte) 0xff, '"', '\\', '{', '}', '[', ']', ',',
            ':', '\n', '\r', '\t', ' ', '0', '1', '9', '-', '+', '.', 'e', 'E', 'x', '=', '|', '/'};

    private static final List<byte[]> NUMBERS = bytes("0", "1", "-1", "-0", "00", "01", "1.5", "1e3", "1E400", "-1e-400",
            "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "18446744073709551615",
            "18446744073709551616", "99999999999999999999999999", "0x10", "NaN", "inf", "+5", "1_000");

    private static final List<byte[]> COMMON = bytes("\"", "\\", "\\u0000", "\\ud800", "\\udc00\\ud800", "\\uD83D\\uDE00",
            "\\x", "\u00e9", "\u2028", "\ufeff", "null", "true", "false", "[]", "{}", "[[[[", "]]]]", "{\"a\":", ",", ",,", ":",
            " ", "\t", "\r\n", "\n", "\n\n");

    private final List<byte[]> seeds;
    private final List<byte[]> tokens;

    ByteMutator(List<byte[]> seeds, List<byte[]> formatTokens) {
        this.seeds = List.copyOf(seeds);
        List<byte[]> all = new java.util.ArrayList<>(formatTokens);
        all.addAll(COMMON);
        this.tokens = List.copyOf(all);
    }

    static List<byte[]> bytes(String... texts) {
        return Arrays.stream(texts).map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
    }

    /** A mutant of a seed chosen by {@code r}. */
    byte[] next(SplittableRandom r) {
        return mutate(seeds.get(r.nextInt(seeds.size())), r);
    }

    byte[] mutate(byte[] in, SplittableRandom r) {
        byte[] out = in;
        int rounds = 1 + (r.nextInt(8) == 0 ? 2 : r.nextInt(4) == 0 ? 1 : 0);
        for (int i = 0; i < rounds; i++) out = once(out, r);
        return out;
    }

    private byte[] once(byte[] in, SplittableRandom r) {
        int n = in.length;
        int pos = n == 0 ? 0 : r.nextInt(n + 1);
        switch (r.nextInt(10)) {
            case 0 -> {
                if (n == 0) return in;
                byte[] out = in.clone();
                out[Math.min(pos, n - 1)] ^= (byte) (1 << r.nextInt(8));
                return out;
            }
            case 1 -> {
                if (n == 0) return new byte[] {HOSTILE_BYTES[r.nextInt(HOSTILE_BYTES.length)]};
                byte[] out = in.clone();
                out[Math.min(pos, n - 1)] = HOSTILE_BYTES[r.nextInt(HOSTILE_BYTES.length)];
                return out;
            }
            case 2, 3 -> {
                return splice(in, pos, 0, tokens.get(r.nextInt(tokens.size())));
            }
            case 4 -> {
                int len = Math.min(n - Math.min(pos, n), r.nextInt(4) == 0 ? 1 + r.nextInt(Math.max(1, n / 4)) : 1 + r.nextInt(8));
                return splice(in, pos, Math.max(len, 0), new byte[0]);
            }
            case 5 -> {
                int len = Math.min(n - Math.min(pos, n), 1 + r.nextInt(32));
                return splice(in, pos, 0, Arrays.copyOfRange(in, Math.min(pos, n), Math.min(pos, n) + Math.max(len, 0)));
            }
            case 6 -> {
                return Arrays.copyOf(in, pos);
            }
            case 7, 8 -> {
                return replaceNumber(in, pos, NUMBERS.get(r.nextInt(NUMBERS.size())));
            }
            default -> {
                byte[] other = seeds.get(r.nextInt(seeds.size()));
                if (other.length == 0) return in;
                int from = r.nextInt(other.length);
                int len = 1 + r.nextInt(Math.min(64, other.length - from));
                int cut = Math.min(n - Math.min(pos, n), r.nextInt(16));
                return splice(in, pos, cut, Arrays.copyOfRange(other, from, from + len));
            }
        }
    }

    /** Replaces the digit run at or after pos (or inserts at pos if there is none). */
    private static byte[] replaceNumber(byte[] in, int pos, byte[] number) {
        int start = pos;
        while (start < in.length && !isDigit(in[start])) start++;
        if (start >= in.length) return splice(in, Math.min(pos, in.length), 0, number);
        int end = start;
        while (end < in.length && isDigit(in[end])) end++;
        return splice(in, start, end - start, number);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    static byte[] splice(byte[] in, int pos, int removeLen, byte[] insert) {
        pos = Math.min(pos, in.length);
        removeLen = Math.min(removeLen, in.length - pos);
        byte[] out = new byte[in.length - removeLen + insert.length];
        System.arraycopy(in, 0, out, 0, pos);
        System.arraycopy(insert, 0, out, pos, insert.length);
        System.arraycopy(in, pos + removeLen, out, pos + insert.length, in.length - pos - removeLen);
        return out;
    }
}
