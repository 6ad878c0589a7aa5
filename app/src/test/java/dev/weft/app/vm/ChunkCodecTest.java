package dev.weft.app.vm;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The search index's chunk codec gives back exactly what it was given, and shrinks event lines. */
class ChunkCodecTest {

    private static byte[] roundTrip(byte[] in) {
        byte[] encoded = ChunkCodec.encode(in, in.length);
        byte[] out = new byte[ChunkCodec.MAX_INPUT];
        int n = ChunkCodec.decode(encoded, out);
        assertEquals(in.length, n);
        return Arrays.copyOf(out, n);
    }

    @Test
    void decodesToTheSameBytesWhateverTheInput() {
        SplittableRandom rnd = new SplittableRandom(26);
        for (int trial = 0; trial < 200; trial++) {
            int len = trial < 10 ? trial : rnd.nextInt(ChunkCodec.MAX_INPUT + 1);
            byte[] in = new byte[len];
            // Mixtures of noise, short repeats (overlapping copies), long runs (long length codes) and old repeats.
            int alphabet = 1 + rnd.nextInt(trial % 3 == 0 ? 256 : 4);
            for (int i = 0; i < len; i++) {
                int kind = rnd.nextInt(10);
                if (kind < 5 || i < 300) in[i] = (byte) rnd.nextInt(alphabet);
                else if (kind < 8) in[i] = in[i - 1 - rnd.nextInt(3)];
                else in[i] = in[i - 1 - rnd.nextInt(Math.min(i, 60000))];
            }
            assertArrayEquals(in, roundTrip(in), "trial " + trial + ", " + len + " bytes");
        }
        byte[] zeros = new byte[ChunkCodec.MAX_INPUT];
        assertArrayEquals(zeros, roundTrip(zeros));
        assertThrows(IllegalArgumentException.class, () -> ChunkCodec.encode(new byte[ChunkCodec.MAX_INPUT + 1], ChunkCodec.MAX_INPUT + 1));
    }

    @Test
    void eventLinesShrinkToLessThanHalf() {
        StringBuilder sb = new StringBuilder();
        for (int seq = 247_000; sb.length() < 32_000; seq++) {
            sb.append("conn 1 send 127.0.0.2:5001 → 127.0.0.1:5000 seq ").append(seq)
                    .append(": enqueued, delivery at vt 1000ns (tie ").append(seq + 2476).append(")\0")
                    .append(Integer.toHexString(seq * 31)).append('\0');
        }
        byte[] in = sb.toString().getBytes(StandardCharsets.UTF_8);
        byte[] encoded = ChunkCodec.encode(in, in.length);
        assertTrue(encoded.length * 2 < in.length, in.length + " bytes encoded in " + encoded.length);
        assertArrayEquals(in, roundTrip(in));
    }
}
