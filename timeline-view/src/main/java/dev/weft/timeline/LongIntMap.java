package dev.weft.timeline;

import java.util.Arrays;

/**
 * A small open-addressing map from long keys to non-negative int values (linear probing, backward-shift
 * removal), so matching a million sends to their receives does not box a million Longs.
 */
final class LongIntMap {

    static final int MISSING = -1;

    private long[] keys;
    private int[] values;   // MISSING marks an empty slot
    private int size;
    private int mask;

    LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(values, MISSING);
        mask = cap - 1;
    }

    int size() {
        return size;
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    void put(long key, int value) {
        if (value < 0) throw new IllegalArgumentException("values must be >= 0");
        if ((size + 1) * 2 > keys.length) grow();
        int i = hash(key) & mask;
        while (values[i] != MISSING) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    int get(long key) {
        int i = hash(key) & mask;
        while (values[i] != MISSING) {
            if (keys[i] == key) return values[i];
            i = (i + 1) & mask;
        }
        return MISSING;
    }

    /** Removes the key and returns its value, or MISSING. */
    int remove(long key) {
        int i = hash(key) & mask;
        while (values[i] != MISSING) {
            if (keys[i] == key) {
                int v = values[i];
                shiftBack(i);
                size--;
                return v;
            }
            i = (i + 1) & mask;
        }
        return MISSING;
    }

    // Backward-shift deletion keeps every remaining key reachable from its home slot without tombstones.
    private void shiftBack(int hole) {
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            if (values[i] == MISSING) break;
            int home = hash(keys[i]) & mask;
            boolean movable = hole <= i ? (home <= hole || home > i) : (home <= hole && home > i);
            if (movable) {
                keys[hole] = keys[i];
                values[hole] = values[i];
                hole = i;
            }
        }
        values[hole] = MISSING;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        Arrays.fill(values, MISSING);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != MISSING) put(oldKeys[i], oldValues[i]);
        }
    }
}
