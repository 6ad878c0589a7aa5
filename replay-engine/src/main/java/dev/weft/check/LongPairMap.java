package dev.weft.check;

import dev.weft.net.SplitMix64;

/**
 * A map from a pair of longs to a long, open addressing with linear probing, so the invariants' per-record lookups
 * neither box nor allocate (they run once per send and recv over million-record logs). Only grows; never iterated,
 * so no host ordering can leak out of it.
 */
final class LongPairMap {

    private long[] first = new long[64];
    private long[] second = new long[64];
    private long[] values = new long[64];
    private boolean[] used = new boolean[64];
    private int size;

    /** The slot holding the key, or -1. */
    int indexOf(long a, long b) {
        int mask = used.length - 1;
        for (int i = hash(a, b) & mask; used[i]; i = (i + 1) & mask) {
            if (first[i] == a && second[i] == b) {
                return i;
            }
        }
        return -1;
    }

    long valueAt(int slot) {
        return values[slot];
    }

    /** Sets the key's value (adding the key if absent). */
    void put(long a, long b, long value) {
        if (2 * (size + 1) > used.length) {
            grow();
        }
        int mask = used.length - 1;
        int i = hash(a, b) & mask;
        while (used[i] && !(first[i] == a && second[i] == b)) {
            i = (i + 1) & mask;
        }
        if (!used[i]) {
            used[i] = true;
            first[i] = a;
            second[i] = b;
            size++;
        }
        values[i] = value;
    }

    private void grow() {
        long[] oldFirst = first;
        long[] oldSecond = second;
        long[] oldValues = values;
        boolean[] oldUsed = used;
        int capacity = oldUsed.length * 2;
        first = new long[capacity];
        second = new long[capacity];
        values = new long[capacity];
        used = new boolean[capacity];
        size = 0;
        for (int i = 0; i < oldUsed.length; i++) {
            if (oldUsed[i]) {
                put(oldFirst[i], oldSecond[i], oldValues[i]);
            }
        }
    }

    private static int hash(long a, long b) {
        return (int) SplitMix64.mix(a * 31 + b);
    }
}
