package dev.weft.app.vm;

import java.util.Arrays;

/**
 * A small LZ77 byte codec for the search index's chunks: event lines repeat most of the line before them ("conn 1
 * send 127.0.0.2:5001 → 127.0.0.1:5000 seq …"), so a chunk shrinks to about a third, and decoding is mostly array
 * copies, fast enough to run before every scan of a chunk.
 *
 * <p>The format is a run of sequences, each a token byte (high nibble: literal count, low nibble: match length − 4;
 * 15 means "more in the following bytes", each adding up to 255), the literal bytes, then — unless the sequence is
 * the last — the match's distance back as two little-endian bytes. Distances fit 16 bits, hence {@link #MAX_INPUT}.
 */
final class ChunkCodec {

    /** The largest input: a match reaches at most 65535 bytes back. */
    static final int MAX_INPUT = 1 << 16;
    private static final int MIN_MATCH = 4;
    private static final int HASH_BITS = 13;

    private ChunkCodec() { }

    /** The encoding of src[0..len). */
    static byte[] encode(byte[] src, int len) {
        if (len > MAX_INPUT) throw new IllegalArgumentException("chunk of " + len + " bytes, at most " + MAX_INPUT);
        byte[] out = new byte[len + len / 255 + 16];
        int[] lastAt = new int[1 << HASH_BITS];   // position + 1 of the last 4 bytes with this hash, 0 for none
        int in = 0, anchor = 0, at = 0;
        while (in + MIN_MATCH <= len) {
            int h = hash(readInt(src, in));
            int ref = lastAt[h] - 1;
            lastAt[h] = in + 1;
            if (ref >= 0 && in - ref < MAX_INPUT && readInt(src, ref) == readInt(src, in)) {
                int match = MIN_MATCH;
                while (in + match < len && src[ref + match] == src[in + match]) match++;
                at = sequence(out, at, src, anchor, in - anchor, match, in - ref);
                in += match;
                anchor = in;
            } else {
                in++;
            }
        }
        at = sequence(out, at, src, anchor, len - anchor, 0, 0);
        return Arrays.copyOf(out, at);
    }

    /** Decodes src into dst (large enough for the original chunk); returns the decoded length. */
    static int decode(byte[] src, byte[] dst) {
        int in = 0, at = 0;
        while (in < src.length) {
            int token = src[in++] & 0xFF;
            int literals = token >>> 4;
            if (literals == 15) {
                int b;
                do {
                    b = src[in++] & 0xFF;
                    literals += b;
                } while (b == 255);
            }
            System.arraycopy(src, in, dst, at, literals);
            in += literals;
            at += literals;
            if (in >= src.length) break;   // the last sequence has no match
            int distance = (src[in] & 0xFF) | (src[in + 1] & 0xFF) << 8;
            in += 2;
            int match = token & 15;
            if (match == 15) {
                int b;
                do {
                    b = src[in++] & 0xFF;
                    match += b;
                } while (b == 255);
            }
            match += MIN_MATCH;
            int from = at - distance;
            if (distance >= match) {
                System.arraycopy(dst, from, dst, at, match);
            } else {
                for (int i = 0; i < match; i++) dst[at + i] = dst[from + i];   // overlapping: a repeat of a short run
            }
            at += match;
        }
        return at;
    }

    /** Writes one sequence (match 0: the last one, literals only); returns the new end of out. */
    private static int sequence(byte[] out, int at, byte[] src, int from, int literals, int match, int distance) {
        int matchCode = match == 0 ? 0 : match - MIN_MATCH;
        out[at++] = (byte) (Math.min(literals, 15) << 4 | Math.min(matchCode, 15));
        if (literals >= 15) at = length(out, at, literals - 15);
        System.arraycopy(src, from, out, at, literals);
        at += literals;
        if (match == 0) return at;
        out[at++] = (byte) distance;
        out[at++] = (byte) (distance >>> 8);
        if (matchCode >= 15) at = length(out, at, matchCode - 15);
        return at;
    }

    private static int length(byte[] out, int at, int rest) {
        while (rest >= 255) {
            out[at++] = (byte) 255;
            rest -= 255;
        }
        out[at++] = (byte) rest;
        return at;
    }

    private static int readInt(byte[] a, int i) {
        return (a[i] & 0xFF) | (a[i + 1] & 0xFF) << 8 | (a[i + 2] & 0xFF) << 16 | (a[i + 3] & 0xFF) << 24;
    }

    private static int hash(int v) {
        return (v * -1640531535) >>> (32 - HASH_BITS);
    }
}
