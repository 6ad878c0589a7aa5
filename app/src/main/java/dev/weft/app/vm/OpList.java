package dev.weft.app.vm;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * An immutable list of ops backed by an int array (or the identity 0..n-1 without any array), so a
 * virtualized table over a million rows boxes only the rows it shows.
 */
public final class OpList extends AbstractList<Integer> implements RandomAccess {

    private final int[] ops;   // null: identity
    private final int size;

    private OpList(int[] ops, int size) {
        this.ops = ops;
        this.size = size;
    }

    public static OpList all(int n) {
        return new OpList(null, n);
    }

    public static OpList of(int[] ops, int size) {
        return new OpList(ops, size);
    }

    public int op(int index) {
        if (index < 0 || index >= size) throw new IndexOutOfBoundsException(index);
        return ops == null ? index : ops[index];
    }

    @Override
    public Integer get(int index) {
        return op(index);
    }

    @Override
    public int size() {
        return size;
    }

    /** Row index of op, or -(insertion point) - 1 when the op is filtered away. */
    public int rowOf(int op) {
        if (ops == null) return op >= 0 && op < size ? op : -1;
        return Arrays.binarySearch(ops, 0, size, op);
    }

    @Override
    public int indexOf(Object o) {
        if (!(o instanceof Integer i)) return -1;
        int r = rowOf(i);
        return r >= 0 ? r : -1;
    }
}
