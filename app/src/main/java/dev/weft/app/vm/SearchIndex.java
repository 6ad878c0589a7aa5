package dev.weft.app.vm;

import dev.weft.app.source.RecordingSource;
import dev.weft.log.LogRecord;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleConsumer;

/**
 * What search matches, read once: every op's lower-case event line, payload hex and decoded payload text as UTF-8
 * bytes in chunks of at most {@link #CHUNK_BYTES}, each kept encoded by {@link ChunkCodec} (event lines repeat the
 * line before them, so a chunk keeps about a third of its bytes), so a query is a decode and a byte scan over memory
 * (a few hundred ms for a million ops) instead of re-reading and parsing the whole recording. Fields are separated by
 * a NUL byte, which a typed query never holds, so a match never spans two fields or two ops and the answer is exactly
 * {@link EventText#matches}'s.
 *
 * <p>A payload longer than {@link #MAX_PAYLOAD_BYTES} is not copied (a log of 16 MiB payloads would not fit), nor is
 * an event line longer than {@link #MAX_LINE_BYTES} (a violation's long message): such ops are listed and checked
 * against their record at query time. Immutable once built; safe from any thread.
 */
public final class SearchIndex {

    static final int MAX_PAYLOAD_BYTES = 64;
    /** Lines longer than this are matched against their record at query time: a chunk then stays under 64 KiB. */
    static final int MAX_LINE_BYTES = 16 << 10;
    /**
     * Raw bytes per chunk before a new one starts: bounded arrays, the unit of progress, small enough that a decoded
     * chunk stays in the CPU's cache while it is scanned, and (with one op's bytes past it) a codec's input.
     */
    static final int CHUNK_BYTES = 32 << 10;
    /** Records read per call: small, so the source's lock is never held long against the UI's reads. */
    static final int READ_BLOCK = 1024;

    private final byte[][] chunks;
    private final int[] chunkFirstOp;
    /** Per op: the offset just past its bytes within its decoded chunk (a chunk is under 64 KiB: a char holds it). */
    private final char[] ends;
    private final BitSet longPayloads;
    private final BitSet longLines;
    private final RecordingSource source;

    private SearchIndex(byte[][] chunks, int[] chunkFirstOp, char[] ends, BitSet longPayloads, BitSet longLines,
                        RecordingSource source) {
        this.chunks = chunks;
        this.chunkFirstOp = chunkFirstOp;
        this.ends = ends;
        this.longPayloads = longPayloads;
        this.longLines = longLines;
        this.source = source;
    }

    /** Thrown by {@link #build} when {@code cancelled} said so. */
    public static final class Cancelled extends Exception {
        Cancelled() { super("cancelled", null, false, false); }
    }

    /** Reads every record of source in blocks; progress gets the fraction done (0..1) now and then. */
    public static SearchIndex build(RecordingSource source, DoubleConsumer progress, BooleanSupplier cancelled) throws Cancelled {
        return build(source, CHUNK_BYTES, MAX_PAYLOAD_BYTES, progress, cancelled);
    }

    /** {@link #build} with the chunk size and the longest payload copied chosen (tests make both small). */
    static SearchIndex build(RecordingSource source, int chunkBytes, int maxPayloadBytes, DoubleConsumer progress,
                             BooleanSupplier cancelled) throws Cancelled {
        chunkBytes = Math.min(chunkBytes, CHUNK_BYTES);
        int n = source.size();
        char[] ends = new char[n];
        BitSet longPayloads = new BitSet();
        BitSet longLines = new BitSet();
        List<byte[]> chunks = new ArrayList<>();
        List<Integer> firsts = new ArrayList<>();
        ByteBuf buf = new ByteBuf(chunkBytes);
        int chunkFirst = 0;
        for (int from = 0; from < n; from += READ_BLOCK) {
            if (cancelled.getAsBoolean()) throw new Cancelled();
            int to = Math.min(n, from + READ_BLOCK);
            List<LogRecord> recs = source.records(from, to);
            for (int i = 0; i < recs.size(); i++) {
                int op = from + i;
                if (buf.size >= chunkBytes) {
                    chunks.add(buf.encodeAndClear());
                    firsts.add(chunkFirst);
                    chunkFirst = op;
                }
                switch (append(buf, source.eventLine(op, recs.get(i)), recs.get(i), maxPayloadBytes)) {
                    case LONG_PAYLOAD -> longPayloads.set(op);
                    case LONG_LINE -> longLines.set(op);
                    case WHOLE -> { }
                }
                ends[op] = (char) buf.size;
            }
            progress.accept((double) to / n);
        }
        chunks.add(buf.encodeAndClear());
        firsts.add(chunkFirst);
        int[] firstOps = firsts.stream().mapToInt(Integer::intValue).toArray();
        return new SearchIndex(chunks.toArray(new byte[0][]), firstOps, ends, longPayloads, longLines, source);
    }

    /** What of an op went into the index. */
    private enum Copied { WHOLE, LONG_PAYLOAD, LONG_LINE }

    /** Appends the op's fields, leaving out a payload or a line too long to copy (checked at query time instead). */
    private static Copied append(ByteBuf buf, String line, LogRecord r, int maxPayloadBytes) {
        byte[] lower = line.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
        if (lower.length > MAX_LINE_BYTES) return Copied.LONG_LINE;
        buf.add(lower);
        String hex = EventText.payloadHex(r.event());
        if (hex == null) return Copied.WHOLE;
        if (hex.length() > 2 * maxPayloadBytes) return Copied.LONG_PAYLOAD;
        buf.add(hex.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        byte[] b = PayloadText.decodeHex(hex);
        if (b != null) buf.add(new String(b, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
        return Copied.WHOLE;
    }

    public int size() { return ends.length; }

    /** Bytes held (for the benchmark and the limits page). */
    public long bytesUsed() {
        long b = 2L * ends.length + 4L * chunkFirstOp.length + longPayloads.size() / 8 + longLines.size() / 8;
        for (byte[] c : chunks) b += c.length + 16;
        return b;
    }

    /**
     * Ops whose event line or payload (hex or text) contains {@code lower} (already lower-case), ascending;
     * progress gets the fraction scanned now and then. Returns null when cancelled.
     */
    public int[] find(String lower, DoubleConsumer progress, BooleanSupplier cancelled) {
        byte[] q = lower.getBytes(StandardCharsets.UTF_8);
        if (q.length == 0) return new int[0];
        boolean typed = lower.indexOf('\0') < 0;
        int[] found = new int[64];
        int count = 0;
        byte[] chunk = new byte[ChunkCodec.MAX_INPUT];
        for (int c = 0; c < chunks.length; c++) {
            if (cancelled.getAsBoolean()) return null;
            int length = ChunkCodec.decode(chunks[c], chunk);
            int firstOp = chunkFirstOp[c];
            int lastOp = c + 1 < chunks.length ? chunkFirstOp[c + 1] : ends.length;
            int op = firstOp;
            for (int at = indexOf(chunk, q, 0, length); at >= 0; ) {
                while (ends[op] <= at) op++;
                if (!typed && at + q.length > ends[op]) {   // a NUL in the query could join two fields: skip past
                    at = indexOf(chunk, q, at + 1, length);
                    continue;
                }
                if (count == found.length) found = Arrays.copyOf(found, count * 2);
                found[count++] = op;
                if (++op >= lastOp) break;
                at = indexOf(chunk, q, ends[op - 1], length);
            }
            progress.accept((double) (c + 1) / chunks.length);
        }
        int[] result = Arrays.copyOf(found, count);
        if (longPayloads.isEmpty() && longLines.isEmpty()) return result;
        // Ops with long payloads: their line may have matched already; their payload is read now. Ops with long
        // lines: all of them is read now.
        BitSet hits = new BitSet();
        for (int op : result) hits.set(op);
        for (int op = longPayloads.nextSetBit(0); op >= 0; op = longPayloads.nextSetBit(op + 1)) {
            if (cancelled.getAsBoolean()) return null;
            if (!hits.get(op) && EventText.payloadContains(source.record(op).event(), lower)) hits.set(op);
        }
        for (int op = longLines.nextSetBit(0); op >= 0; op = longLines.nextSetBit(op + 1)) {
            if (cancelled.getAsBoolean()) return null;
            LogRecord r = source.record(op);
            if (EventText.matches(source.eventLine(op, r), r, lower)) hits.set(op);
        }
        return hits.stream().toArray();
    }

    /** First index of q in a[from..to), or -1: a scan for q's first byte, then a compare. */
    static int indexOf(byte[] a, byte[] q, int from, int to) {
        byte first = q[0];
        int last = to - q.length;
        outer:
        for (int i = from; i <= last; i++) {
            if (a[i] != first) continue;
            for (int k = 1; k < q.length; k++) {
                if (a[i + k] != q[k]) continue outer;
            }
            return i;
        }
        return -1;
    }

    /** A growable byte array: each field's UTF-8 bytes followed by a NUL. */
    private static final class ByteBuf {
        byte[] bytes;
        int size;

        ByteBuf(int chunkBytes) { bytes = new byte[chunkBytes + (chunkBytes >> 2)]; }

        void add(byte[] b) {
            ensure(b.length + 1);
            System.arraycopy(b, 0, bytes, size, b.length);
            size += b.length;
            bytes[size++] = 0;
        }

        private void ensure(int more) {
            if (size + more > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }

        byte[] encodeAndClear() {
            byte[] out = ChunkCodec.encode(bytes, size);
            size = 0;
            return out;
        }
    }
}
