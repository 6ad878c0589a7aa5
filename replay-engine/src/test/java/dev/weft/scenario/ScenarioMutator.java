package dev.weft.scenario;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded mutations of valid scenarios at the byte level: byte flips, deletions, insertions of random
 * bytes, and splices of JSON/DSL tokens (including edge values such as {@code -0}, {@code 1e999},
 * lone surrogates, u64 overflow, Unicode white space, invalid UTF-8). Same seed ⇒ same variants.
 */
final class ScenarioMutator {

    private static final List<String> TOKENS = List.of(
            "{", "}", "[", "]", "\"", ":", ",", " ", "\n", "\\", "\\u", "null", "true", "false", "0", "1", "-1", "-0",
            "1.5", "2", "1e21", "1e999", "-1e999", "18446744073709551615", "18446744073709551616", "9223372036854775808",
            "0.0000001", "\"\\ud800\"", "\"\\udc00\"", "\"\\u00a0\"", "\u00a0", "\u3000", "\u2028", "\"x\"", "\"\"",
            "\"name\"", "\"seed\"", "\"nodes\"", "\"node_id\"", "\"program\"", "\"args\"", "\"network\"", "\"latency\"",
            "\"loss\"", "\"bandwidth\"", "\"partitions\"", "\"filesystem\"", "\"time_skew\"", "\"events\"", "\"time_ns\"",
            "\"action\"", "\"type\"", "\"crash\"", "\"start\"", "\"activate_partition\"", "\"clear_partition\"", "\"spec\"",
            "\"fsync_lies\"", "\"torn_write_probability\"", "\"enospc_after_bytes\"", "\"fixed:\"", "\"uniform:\"", "\"exp:\"",
            "fixed:", "uniform:", "exp:", "|", "+", "-", "\"0|1|\"", "\"+0\"", "\"99\"", "{\"a\":[[[[[]]]]]}",
            "\u00e9", "\ud83d\ude00", "/*", "//", "'", "NaN", "Infinity", "0x1", "01", ".5", "5.");

    private static final byte[][] TOKEN_BYTES = TOKENS.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);

    private final SplittableRandom random;
    private final byte[][] bases;

    ScenarioMutator(long seed, List<String> validScenarios) {
        this.random = new SplittableRandom(seed);
        this.bases = validScenarios.stream().map(s -> s.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
    }

    /** The next variant: a base scenario with one to four mutations applied. */
    byte[] next() {
        byte[] current = bases[random.nextInt(bases.length)];
        int rounds = random.nextInt(4) == 0 ? 2 + random.nextInt(3) : 1;
        for (int i = 0; i < rounds; i++) {
            current = mutateOnce(current);
        }
        return current;
    }

    private byte[] mutateOnce(byte[] in) {
        int n = in.length;
        int pos = n == 0 ? 0 : random.nextInt(n + 1);
        return switch (random.nextInt(8)) {
            case 6 -> { // change one digit: keeps the JSON valid, moves values across validation bounds
                int at = findFrom(in, pos, c -> c >= '0' && c <= '9');
                if (at < 0) yield in;
                byte[] out = in.clone();
                out[at] = (byte) ('0' + random.nextInt(10));
                yield out;
            }
            case 7 -> { // replace the value after the next ':' by a token
                int colon = findFrom(in, pos, c -> c == ':');
                if (colon < 0) yield in;
                int end = findFrom(in, colon + 1, c -> c == ',' || c == '}' || c == ']');
                if (end < 0) yield in;
                yield splice(in, colon + 1, end - colon - 1, TOKEN_BYTES[random.nextInt(TOKEN_BYTES.length)]);
            }
            case 0 -> { // flip one byte to a random value
                if (n == 0) yield in;
                byte[] out = in.clone();
                out[Math.min(pos, n - 1)] = (byte) random.nextInt(256);
                yield out;
            }
            case 1 -> { // delete a short range
                int len = Math.min(n - pos, 1 + random.nextInt(8));
                yield splice(in, pos, len, new byte[0]);
            }
            case 2 -> { // insert a few random bytes
                byte[] ins = new byte[1 + random.nextInt(3)];
                for (int i = 0; i < ins.length; i++) ins[i] = (byte) random.nextInt(256);
                yield splice(in, pos, 0, ins);
            }
            case 3 -> splice(in, pos, 0, TOKEN_BYTES[random.nextInt(TOKEN_BYTES.length)]); // insert a token
            case 4 -> { // replace a range by a token
                int len = Math.min(n - pos, 1 + random.nextInt(12));
                yield splice(in, pos, len, TOKEN_BYTES[random.nextInt(TOKEN_BYTES.length)]);
            }
            default -> { // copy a piece of this scenario somewhere else
                if (n == 0) yield in;
                int from = random.nextInt(n);
                int len = Math.min(n - from, 1 + random.nextInt(24));
                byte[] piece = new byte[len];
                System.arraycopy(in, from, piece, 0, len);
                yield splice(in, pos, 0, piece);
            }
        };
    }

    private static int findFrom(byte[] in, int from, java.util.function.IntPredicate p) {
        for (int i = from; i < in.length; i++) {
            if (p.test(in[i])) return i;
        }
        return -1;
    }

    private static byte[] splice(byte[] in, int pos, int removeLen, byte[] insert) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + insert.length);
        out.write(in, 0, pos);
        out.write(insert, 0, insert.length);
        out.write(in, pos + removeLen, in.length - pos - removeLen);
        return out.toByteArray();
    }
}
