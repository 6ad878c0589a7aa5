package dev.weft.chord;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A value that changes at certain ops, queried by op in O(log n): {@link #at(long)} is the value set by
 * the last change at or before op (null before the first). Ops are appended in non-decreasing order;
 * a second change at the same op replaces the first. Ops are u64 compared unsigned.
 */
public final class ChangeSeries<T> {

    private long[] ops = new long[8];
    private final List<T> values = new ArrayList<>();

    public void append(long op, T value) {
        int n = values.size();
        if (n > 0) {
            int c = Long.compareUnsigned(op, ops[n - 1]);
            if (c < 0) throw new IllegalArgumentException("op " + Long.toUnsignedString(op) + " before " + Long.toUnsignedString(ops[n - 1]));
            if (c == 0) {
                values.set(n - 1, value);
                return;
            }
        }
        if (n == ops.length) ops = Arrays.copyOf(ops, n * 2);
        ops[n] = op;
        values.add(value);
    }

    /** The value in force after op, or null when nothing changed at or before op. */
    public T at(long op) {
        int i = indexAt(op);
        return i < 0 ? null : values.get(i);
    }

    /** Index of the last change at or before op, -1 if none. */
    public int indexAt(long op) {
        int lo = 0, hi = values.size() - 1, found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(ops[mid], op) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found;
    }

    public int size() {
        return values.size();
    }

    /** The ops at which the value changed, ascending; empty for a missing series. */
    public static long[] changeOps(ChangeSeries<?> series) {
        if (series == null) return new long[0];
        long[] out = new long[series.size()];
        for (int i = 0; i < out.length; i++) out[i] = series.opAt(i);
        return out;
    }

    public long opAt(int index) {
        if (index < 0 || index >= values.size()) throw new IndexOutOfBoundsException(index);
        return ops[index];
    }

    public T valueAt(int index) {
        return values.get(index);
    }

    /** The last value, or null when empty. */
    public T last() {
        return values.isEmpty() ? null : values.get(values.size() - 1);
    }
}
