package dev.weft.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Anomalies of a list-append history (in the spirit of Elle, over single-key operations): each key is a list that
 * appends extend, and a read returns the whole list. With every appended value distinct per key, the reads of a
 * correct system are prefixes of one another and only grow. Found, per key:
 * <ul>
 * <li><b>duplicated</b>: one read holds a value twice;</li>
 * <li><b>phantom</b>: a read holds a value that no {@code ok} or indeterminate append wrote;</li>
 * <li><b>reordered</b>: two reads disagree on the order (neither is a prefix of the other), or a read puts a value
 * before one whose append was acknowledged before the first value's append was invoked;</li>
 * <li><b>lost</b>: a value acknowledged (or already seen by a read) is missing from a read invoked later.</li>
 * </ul>
 * Indeterminate reads are ignored; a failed append's value counts as never written.
 */
public final class ListAppendChecker {

    /** At most this many findings of one kind per key are listed (the count says how many there were). */
    static final int LIMIT = 10;

    /** Keys checked and the findings: kinds in the order above, then keys, then lines. */
    public record Result(int objects, List<Finding> findings, Map<String, Integer> omitted) {
    }

    private ListAppendChecker() {
    }

    public static Result check(List<Operation> ops) {
        Map<String, List<Operation>> byKey = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
        for (Operation op : ops) {
            if (!(op.indeterminate() && op.f() == OpFunction.READ)) {
                byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        List<Finding> all = new ArrayList<>();
        for (Map.Entry<String, List<Operation>> e : byKey.entrySet()) {
            all.addAll(checkKey(e.getKey(), e.getValue()));
        }
        List<String> kinds = List.of("duplicated", "phantom", "reordered", "lost");
        all.sort(Comparator.comparingInt((Finding f) -> kinds.indexOf(f.kind()))
                .thenComparing(Finding::key, Comparator.nullsFirst(Comparator.naturalOrder()))
                .thenComparingInt(f -> f.operations().get(f.operations().size() - 1).invokeLine()));
        List<Finding> shown = new ArrayList<>();
        Map<String, Integer> omitted = new TreeMap<>();
        Map<String, Integer> perKindKey = new HashMap<>();
        for (Finding f : all) {
            String k = f.kind() + " " + f.key();
            int n = perKindKey.merge(k, 1, Integer::sum);
            if (n <= LIMIT) {
                shown.add(f);
            } else {
                omitted.merge(f.kind(), 1, Integer::sum);
            }
        }
        return new Result(byKey.size(), shown, omitted);
    }

    private static List<Finding> checkKey(String key, List<Operation> ops) {
        String obj = HistoryText.object(key);
        Map<String, Operation> appendOf = new HashMap<>();
        List<Operation> reads = new ArrayList<>();
        for (Operation op : ops) {
            if (op.f() == OpFunction.APPEND) {
                appendOf.put(op.input().text(), op);
            } else if (op.output().isArray()) {
                reads.add(op);
            }
        }
        List<Finding> out = new ArrayList<>();
        Operation longest = null;
        for (Operation r : reads) {
            List<String> list = r.output().elements();
            if (longest == null || list.size() > longest.output().elements().size()) {
                longest = r;
            }
            Set<String> seen = new HashSet<>();
            for (String x : list) {
                if (!seen.add(x)) {
                    out.add(new Finding("duplicated", key, obj + ": a read returned " + x + " twice: "
                            + r.output().text(), List.of(r), ""));
                    break;
                }
            }
            for (String x : list) {
                if (!appendOf.containsKey(x)) {
                    out.add(new Finding("phantom", key, obj + ": a read returned " + x + ", which no append wrote",
                            List.of(r), ""));
                    break;
                }
            }
        }
        for (Operation r : reads) {
            List<String> a = r.output().elements();
            List<String> b = longest.output().elements();
            int i = 0;
            while (i < a.size() && a.get(i).equals(b.get(i))) {
                i++;
            }
            if (i < a.size()) {
                out.add(new Finding("reordered", key, obj + ": two reads disagree at position " + i + ": "
                        + a.get(i) + " in one, " + b.get(i) + " in the other", order(r, longest), ""));
            }
        }
        for (Operation r : reads) {
            List<String> list = r.output().elements();
            Map<String, Integer> at = new HashMap<>();
            for (int i = 0; i < list.size(); i++) {
                at.putIfAbsent(list.get(i), i);
            }
            reorderedAgainstRealTime(key, obj, r, list, at, appendOf, out);
        }
        lost(key, obj, reads, appendOf, out);
        return out;
    }

    /** A read putting y before x although x's append was acknowledged before y's was invoked. */
    private static void reorderedAgainstRealTime(String key, String obj, Operation r, List<String> list,
                                                 Map<String, Integer> at, Map<String, Operation> appendOf,
                                                 List<Finding> out) {
        for (int j = 0; j < list.size(); j++) {
            Operation later = appendOf.get(list.get(j));
            if (later == null || at.get(list.get(j)) != j) {
                continue; // a repeated value is reported as duplicated, not as an order
            }
            for (int i = j + 1; i < list.size(); i++) {
                Operation earlier = appendOf.get(list.get(i));
                if (earlier != null && at.get(list.get(i)) == i && !earlier.indeterminate() && earlier.completeTime() < later.invokeTime()) {
                    out.add(new Finding("reordered", key, obj + ": append " + list.get(i) + " acknowledged at "
                            + HistoryText.time(earlier.completeTime()) + " before append " + list.get(j)
                            + " was invoked, but a read returned " + list.get(j) + " first",
                            sorted(List.of(earlier, later, r)), ""));
                    return;
                }
            }
        }
    }

    /** Values acknowledged, or seen by a completed read, and missing from a read invoked after that. */
    private static void lost(String key, String obj, List<Operation> reads, Map<String, Operation> appendOf,
                             List<Finding> out) {
        Map<String, Operation> witness = new TreeMap<>();
        for (Operation a : appendOf.values()) {
            if (!a.indeterminate()) {
                witness.put(a.input().text(), a);
            }
        }
        for (Operation r : reads) {
            for (String x : r.output().elements()) {
                Operation w = witness.get(x);
                if (w == null || r.completeTime() < w.completeTime()) {
                    witness.put(x, r);
                }
            }
        }
        for (Map.Entry<String, Operation> e : witness.entrySet()) {
            String x = e.getKey();
            Operation w = e.getValue();
            for (Operation r : reads) {
                if (r.invokeTime() > w.completeTime() && !r.output().elements().contains(x)) {
                    String how = w.f() == OpFunction.APPEND ? "append " + x + " acknowledged at "
                            : x + " read at ";
                    out.add(new Finding("lost", key, obj + ": " + how + HistoryText.time(w.completeTime())
                            + ", then a read invoked at " + HistoryText.time(r.invokeTime()) + " does not contain it",
                            sorted(List.of(w, r)), ""));
                    break;
                }
            }
        }
    }

    private static List<Operation> order(Operation a, Operation b) {
        return a.id() <= b.id() ? List.of(a, b) : List.of(b, a);
    }

    private static List<Operation> sorted(List<Operation> ops) {
        List<Operation> s = new ArrayList<>(new java.util.LinkedHashSet<>(ops));
        s.sort(Comparator.comparingInt(Operation::id));
        return s;
    }
}
