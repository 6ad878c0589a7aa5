package dev.weft.core;

import dev.weft.log.VAddr;
import dev.weft.text.Hex;
import java.util.Arrays;

/**
 * One connection's pending datagrams: a binary min-heap on (deliv, tie), both unsigned, in parallel
 * arrays (the immutable address objects are kept as given, so popping allocates none).
 *
 * <p>A payload is kept in the form it was sent in: a {@code byte[]} (the live broker, the fuzzer) or a lowercase hex
 * {@code String} (replay, {@link Core#sendHex}); each is converted to the other form only when asked for it.
 */
final class ConnQueue {

    private long[] deliv;
    private long[] tie;
    private VAddr[] src;
    private VAddr[] dst;
    /** byte[] or lowercase hex String per slot (see the class comment); never mutated, so copies share them. */
    private Object[] payload;
    private int size;

    ConnQueue() {
        deliv = new long[8];
        tie = new long[8];
        src = new VAddr[8];
        dst = new VAddr[8];
        payload = new Object[8];
    }

    private ConnQueue(ConnQueue o) {
        deliv = o.deliv.clone();
        tie = o.tie.clone();
        src = o.src.clone();
        dst = o.dst.clone();
        payload = o.payload.clone(); // payload arrays are never mutated and addresses are immutable: share them
        size = o.size;
    }

    ConnQueue copy() {
        return new ConnQueue(this);
    }

    int size() {
        return size;
    }

    /** {@code p}: a byte[] or a lowercase hex String, which the caller no longer changes. */
    void push(long d, long t, VAddr s, VAddr ds, Object p) {
        if (size == deliv.length) {
            int n = size * 2;
            deliv = Arrays.copyOf(deliv, n);
            tie = Arrays.copyOf(tie, n);
            src = Arrays.copyOf(src, n);
            dst = Arrays.copyOf(dst, n);
            payload = Arrays.copyOf(payload, n);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(d, t, deliv[parent], tie[parent])) break;
            set(i, parent);
            i = parent;
        }
        put(i, d, t, s, ds, p);
    }

    // Accessors of the minimum (slot 0); valid only when size > 0.
    long minDeliv() { return deliv[0]; }
    long minTie() { return tie[0]; }
    VAddr minSrc() { return src[0]; }
    VAddr minDst() { return dst[0]; }
    byte[] minPayload() { return bytes(payload[0]); }
    String minPayloadHex() { return hex(payload[0]); }

    // Accessors of any slot in heap order, for snapshots.
    long deliv(int i) { return deliv[i]; }
    long tie(int i) { return tie[i]; }
    VAddr src(int i) { return src[i]; }
    VAddr dst(int i) { return dst[i]; }
    byte[] payload(int i) { return bytes(payload[i]); }

    /** Removes the minimum; size must be > 0. */
    void removeMin() {
        int last = --size;
        long d = deliv[last], t = tie[last];
        VAddr s = src[last], ds = dst[last];
        Object p = payload[last];
        payload[last] = null;
        src[last] = null;
        dst[last] = null;
        if (last == 0) return;
        int i = 0;
        while (true) {
            int child = 2 * i + 1;
            if (child >= last) break;
            if (child + 1 < last && less(deliv[child + 1], tie[child + 1], deliv[child], tie[child])) child++;
            if (!less(deliv[child], tie[child], d, t)) break;
            set(i, child);
            i = child;
        }
        put(i, d, t, s, ds, p);
    }

    /** Where a sift ends: the moving datagram lands in slot {@code i}. */
    private void put(int i, long d, long t, VAddr s, VAddr ds, Object p) {
        deliv[i] = d;
        tie[i] = t;
        src[i] = s;
        dst[i] = ds;
        payload[i] = p;
    }

    private void set(int to, int from) {
        deliv[to] = deliv[from];
        tie[to] = tie[from];
        src[to] = src[from];
        dst[to] = dst[from];
        payload[to] = payload[from];
    }

    private static byte[] bytes(Object p) {
        return p instanceof String hex ? Hex.decode(hex) : (byte[]) p;
    }

    private static String hex(Object p) {
        return p instanceof String hex ? hex : Hex.encodeLower((byte[]) p);
    }

    private static boolean less(long d1, long t1, long d2, long t2) {
        int c = Long.compareUnsigned(d1, d2);
        return c < 0 || (c == 0 && Long.compareUnsigned(t1, t2) < 0);
    }
}
