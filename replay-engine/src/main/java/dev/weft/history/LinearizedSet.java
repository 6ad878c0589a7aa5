package dev.weft.history;

import java.util.Arrays;

/**
 * The set of operations linearized so far (by id, ids in invocation order), with a compact snapshot for the memo.
 *
 * <p>Why compact: in a long history almost every operation below some id is linearized and almost none above a
 * little later one, so a snapshot keeps only the words between the first word that is not all ones and the last
 * word that is not all zeros. A 100,000-operation register history then memoises a few words per state instead
 * of 12.5 KB.
 */
final class LinearizedSet {
    private final long[] words;
    /** No word below this index has a zero bit. */
    private int low;
    /** No word above this index has a one bit. */
    private int high = -1;

    LinearizedSet(int size) {
        words = new long[(size + 63) >>> 6];
    }

    void set(int id) {
        int w = id >>> 6;
        words[w] |= 1L << id;
        high = Math.max(high, w);
        while (low < words.length && words[low] == -1L) {
            low++;
        }
    }

    void clear(int id) {
        int w = id >>> 6;
        words[w] &= ~(1L << id);
        low = Math.min(low, w);
    }

    /** An immutable snapshot: equal sets give equal snapshots. */
    Snapshot snapshot() {
        while (high >= low && words[high] == 0) {
            high--;
        }
        return new Snapshot(low, high < low ? new long[0] : Arrays.copyOfRange(words, low, high + 1));
    }

    /** {@code low} identifies the all-ones prefix; {@code words} the rest up to the last one bit. */
    static final class Snapshot {
        private final int low;
        private final long[] words;
        private final int hash;

        Snapshot(int low, long[] words) {
            this.low = low;
            this.words = words;
            this.hash = 31 * low + Arrays.hashCode(words);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Snapshot s && s.low == low && Arrays.equals(s.words, words);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
