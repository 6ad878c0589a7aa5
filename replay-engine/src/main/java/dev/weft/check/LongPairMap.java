package dev.weft.check;

import dev.weft.net.SplitMix64;

/**
 * A map from a pair of longs to a long, so the invariants' per-record lookups neither box nor allocate (they run once
 * per send and recv over million-record logs). Open addressing, linear probing, each slot's key, value and "used"
 * flag side by side in one array (one cache line per lookup). Only grows; never iterated, so no host ordering can
 * leak out of it.
 *
 * <p>Keys are placed by their plain value at first: the core numbers datagrams (ties) 0, 1, 2, ..., which then sit in
 * consecutive slots, the cheapest layout for the cache. Keys from a file can be anything, though, so a probe run
 * longer than {@link #MAX_PROBE} switches the table to scrambled placement (a full 64-bit mix) for good: an edited
 * log cannot make lookups slow.
 */
final class LongPairMap {

    private static final int STRIDE = 4; // first, second, value, used
    private static final int MAX_PROBE = 64;

    private long[] slots = new long[64 * STRIDE];
    private int capacity = 64;
    private int size;
    private boolean scrambled;

    /** The slot holding the key, or -1. */
    int indexOf(long a, long b) {
        int mask = capacity - 1;
        long[] t = slots;
        for (int i = home(a, b) & mask; ; i = (i + 1) & mask) {
            int at = i * STRIDE;
            if (t[at + 3] == 0) {
                return -1;
            }
            if (t[at] == a && t[at + 1] == b) {
                return i;
            }
        }
    }

    long valueAt(int slot) {
        return slots[slot * STRIDE + 2];
    }

    /** Sets the key's value (adding the key if absent). */
    void put(long a, long b, long value) {
        if (2 * (size + 1) > capacity) {
            rehash(capacity * 2, scrambled);
        }
        int mask = capacity - 1;
        long[] t = slots;
        int i = home(a, b) & mask;
        for (int probes = 0; ; i = (i + 1) & mask, probes++) {
            int at = i * STRIDE;
            if (t[at + 3] == 0) {
                if (probes > MAX_PROBE && !scrambled) {
                    rehash(capacity, true);
                    put(a, b, value);
                    return;
                }
                t[at] = a;
                t[at + 1] = b;
                t[at + 2] = value;
                t[at + 3] = 1;
                size++;
                return;
            }
            if (t[at] == a && t[at + 1] == b) {
                t[at + 2] = value;
                return;
            }
        }
    }

    private int home(long a, long b) {
        long k = a + b * 0x9E3779B97F4A7C15L;
        return (int) (scrambled ? SplitMix64.mix(k) : k ^ (k >>> 32));
    }

    private void rehash(int newCapacity, boolean scramble) {
        long[] old = slots;
        slots = new long[newCapacity * STRIDE];
        capacity = newCapacity;
        scrambled = scramble;
        size = 0;
        for (int at = 0; at < old.length; at += STRIDE) {
            if (old[at + 3] != 0) {
                put(old[at], old[at + 1], old[at + 2]);
            }
        }
    }
}
