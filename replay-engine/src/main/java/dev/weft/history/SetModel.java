package dev.weft.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;

/**
 * A set (initially empty): {@code add x} puts x in, a read returns every element (in any order, as a JSON
 * array). States are sorted lists of the elements' canonical texts, so equal sets are equal states.
 */
public final class SetModel implements Model {

    @Override
    public Object initial() {
        return List.of();
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object step(Object state, Operation op) {
        List<String> s = (List<String>) state;
        return switch (op.f()) {
            case ADD -> {
                int at = Collections.binarySearch(s, op.input().text());
                if (at >= 0) {
                    yield s;
                }
                List<String> grown = new ArrayList<>(s.size() + 1);
                grown.addAll(s);
                grown.add(-at - 1, op.input().text());
                yield List.copyOf(grown);
            }
            case READ -> op.output().isArray() && new ArrayList<>(new TreeSet<>(op.output().elements())).equals(s)
                    ? s : null;
            default -> throw new IllegalArgumentException("not a set operation: " + op.f());
        };
    }
}
