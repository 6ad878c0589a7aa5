package dev.weft.core;

import dev.weft.net.SplitMix64;

/**
 * A small open-addressing hash table keyed by a pair of longs, holding a long and/or an object per key,
 * so the core's hot path (one lookup per send and recv) neither boxes nor allocates. Linear probing with
 * backward-shift deletion. Never iterated for anything order-sensitive: snapshots sort what they read.
 */
final class OpenHashTable {

    private long[] key1;
    private long[] key2;
    private long[] longValue;
    private Object[] objectValue;
    private boolean[] used;
    private int size;

    OpenHashTable() {
        allocate(16);
    }

    private OpenHashTable(OpenHashTable o) {
        key1 = o.key1.clone();
        key2 = o.key2.clone();
        longValue = o.longValue.clone();
        objectValue = o.objectValue.clone();
        used = o.used.clone();
        size = o.size;
    }

    /** A copy with its own arrays; object values are shared (callers deep-copy them if mutable). */
    OpenHashTable copy() {
        return new OpenHashTable(this);
    }

    private void allocate(int capacity) {
        key1 = new long[capacity];
        key2 = new long[capacity];
        longValue = new long[capacity];
        objectValue = new Object[capacity];
        used = new boolean[capacity];
        size = 0;
    }

    int size() {
        return size;
    }

    /** Number of slots; slots with {@link #isUsed} true hold entries. */
    int capacity() {
        return used.length;
    }

    boolean isUsed(int slot) {
        return used[slot];
    }

    long key1(int slot) {
        return key1[slot];
    }

    long key2(int slot) {
        return key2[slot];
    }

    long longValue(int slot) {
        return longValue[slot];
    }

    void setLong(int slot, long v) {
        longValue[slot] = v;
    }

    Object objectValue(int slot) {
        return objectValue[slot];
    }

    void setObject(int slot, Object v) {
        objectValue[slot] = v;
    }

    private static int hash(long a, long b) {
        return (int) SplitMix64.mix(a * 0x9E3779B97F4A7C15L + b);
    }

    /** The slot holding key (a, b), or -1. */
    int find(long a, long b) {
        int mask = used.length - 1;
        for (int i = hash(a, b) & mask; used[i]; i = (i + 1) & mask) {
            if (key1[i] == a && key2[i] == b) return i;
        }
        return -1;
    }

    /** The slot holding key (a, b), inserting it (values 0 / null) if absent. */
    int insert(long a, long b) {
        int found = find(a, b);
        if (found >= 0) return found;
        if ((size + 1) * 2 > used.length) grow();
        int mask = used.length - 1;
        int i = hash(a, b) & mask;
        while (used[i]) i = (i + 1) & mask;
        used[i] = true;
        key1[i] = a;
        key2[i] = b;
        longValue[i] = 0;
        objectValue[i] = null;
        size++;
        return i;
    }

    /** Removes the entry in slot, shifting later members of its probe run back so lookups stay correct. */
    void removeAt(int slot) {
        int mask = used.length - 1;
        int hole = slot;
        int i = (slot + 1) & mask;
        while (used[i]) {
            int home = hash(key1[i], key2[i]) & mask;
            // Move i into the hole unless its home lies cyclically in (hole, i].
            boolean homeBetween = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!homeBetween) {
                key1[hole] = key1[i];
                key2[hole] = key2[i];
                longValue[hole] = longValue[i];
                objectValue[hole] = objectValue[i];
                hole = i;
            }
            i = (i + 1) & mask;
        }
        used[hole] = false;
        objectValue[hole] = null;
        size--;
    }

    private void grow() {
        long[] k1 = key1, k2 = key2, lv = longValue;
        Object[] ov = objectValue;
        boolean[] u = used;
        allocate(u.length * 2);
        for (int s = 0; s < u.length; s++) {
            if (!u[s]) continue;
            int i = insert(k1[s], k2[s]);
            longValue[i] = lv[s];
            objectValue[i] = ov[s];
        }
    }
}
