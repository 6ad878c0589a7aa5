package dev.weft.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Linearizability of register, cas-register, kv and set histories. Linearizability is local (Herlihy–Wing), so a
 * kv history is split by key and each key searched alone; indeterminate reads are dropped first (a read whose
 * result nobody saw constrains nothing). For each inconsistent object the finding is the smallest inconsistent
 * sub-history {@link SubHistoryShrinker} finds, with a headline in plain words.
 */
public final class LinearizabilityChecker {

    /** Steps of the search of one object before it gives up (UNDECIDED, exit 3): far beyond any real history. */
    public static final long MAX_STEPS = 500_000_000L;

    /** Objects checked, the findings (keys in order), and the keys whose search gave up. */
    public record Result(int objects, List<Finding> findings, List<String> undecided) {
    }

    private LinearizabilityChecker() {
    }

    public static Result check(List<Operation> ops, HistoryModel model) {
        Map<String, List<Operation>> byKey = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
        for (Operation op : ops) {
            if (op.indeterminate() && op.f() == OpFunction.READ) {
                continue;
            }
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        List<Finding> findings = new ArrayList<>();
        List<String> undecided = new ArrayList<>();
        Model objectModel = model.objectModel();
        for (Map.Entry<String, List<Operation>> e : byKey.entrySet()) {
            List<Operation> keyOps = SubHistoryShrinker.renumbered(withoutUnobservedIndeterminate(e.getValue()));
            LinearizabilitySearch.Result r = LinearizabilitySearch.check(keyOps, objectModel, MAX_STEPS);
            switch (r.outcome()) {
                case LINEARIZABLE -> { }
                case UNDECIDED -> undecided.add(e.getKey());
                case NOT_LINEARIZABLE -> {
                    SubHistoryShrinker.Shrunk s = SubHistoryShrinker.shrink(keyOps, objectModel, r);
                    Why why = model == HistoryModel.SET ? setWhy(s.operations()) : registerWhy(s.operations());
                    findings.add(new Finding("not-linearizable", e.getKey(),
                            HistoryText.object(e.getKey()) + ": " + why.text() + " (not linearizable)", s.operations(),
                            s.minimal() ? "" : "shrinking stopped at its step budget: a smaller sub-history may exist",
                            why.named()));
                }
            }
        }
        return new Result(byKey.size(), findings, undecided);
    }

    /**
     * The operations without the indeterminate writes, cas and adds whose value nothing observes (no ok read returns
     * it, no cas expects it). Such an operation may as well not have taken effect: in any linearization that has it,
     * no later operation before the next write looks at its value (a set's later reads would all hold it), so
     * removing it keeps the linearization valid. Dropping them first keeps the search from trying each at every
     * point after its invocation — the pathological case of histories with many timeouts.
     */
    static List<Operation> withoutUnobservedIndeterminate(List<Operation> ops) {
        java.util.Set<String> observed = new java.util.HashSet<>();
        for (Operation op : ops) {
            if (op.f() == OpFunction.READ && !op.indeterminate()) {
                if (op.output().isArray()) {
                    observed.addAll(op.output().elements());
                }
                observed.add(op.output().text());
            } else if (op.f() == OpFunction.CAS) {
                observed.add(op.input().elements().get(0));
            }
        }
        List<Operation> kept = new ArrayList<>(ops.size());
        for (Operation op : ops) {
            String v = op.f() == OpFunction.ADD ? op.input().text() : written(op);
            if (!(op.indeterminate() && v != null && !observed.contains(v))) {
                kept.add(op);
            }
        }
        return kept;
    }

    /** The value a register operation leaves, or null for a read. */
    private static String written(Operation op) {
        return switch (op.f()) {
            case WRITE -> op.input().text();
            case CAS -> op.input().elements().get(1);
            default -> null;
        };
    }

    /**
     * A stale read when there is one: a write acknowledged before a read was invoked, every write of the value
     * read having completed before that write began; else a read of a value nobody wrote; else the general words.
     */
    static String registerExplanation(List<Operation> ops) {
        return registerWhy(ops).text();
    }

    /** Why a sub-history is inconsistent, in plain words, and the operations those words name (in invocation order). */
    record Why(String text, List<Operation> named) {
    }

    private static Why why(String text, Operation... named) {
        return new Why(text, java.util.Arrays.stream(named)
                .sorted(java.util.Comparator.comparingLong(Operation::invokeTime)).toList());
    }

    private static Why registerWhy(List<Operation> ops) {
        for (Operation read : ops) {
            if (read.f() != OpFunction.READ || read.indeterminate()) {
                continue;
            }
            String v = read.output().text();
            List<Operation> producers = ops.stream().filter(o -> v.equals(written(o))).toList();
            if (producers.isEmpty() && !v.equals("null")) {
                return why("a read invoked at " + HistoryText.time(read.invokeTime()) + " returned " + v
                        + ", which no operation wrote", read);
            }
            Operation stale = null;
            for (Operation w : ops) {
                String x = written(w);
                if (x == null || x.equals(v) || w.indeterminate() || w.completeTime() >= read.invokeTime()) {
                    continue;
                }
                boolean allBefore = producers.stream().allMatch(p -> p.completeTime() < w.invokeTime());
                if (allBefore && (stale == null || w.completeTime() > stale.completeTime())) {
                    stale = w;
                }
            }
            if (stale != null) {
                return why(HistoryText.what(stale) + " acknowledged at " + HistoryText.time(stale.completeTime())
                        + ", then a read invoked at " + HistoryText.time(read.invokeTime()) + " returned " + v,
                        stale, read);
            }
        }
        return why(general(ops));
    }

    /** A read missing an acknowledged add, or holding an element nobody added; else the general words. */
    static String setExplanation(List<Operation> ops) {
        return setWhy(ops).text();
    }

    private static Why setWhy(List<Operation> ops) {
        for (Operation read : ops) {
            if (read.f() != OpFunction.READ || read.indeterminate() || !read.output().isArray()) {
                continue;
            }
            for (String x : read.output().elements()) {
                if (ops.stream().noneMatch(o -> o.f() == OpFunction.ADD && o.input().text().equals(x))) {
                    return why("a read invoked at " + HistoryText.time(read.invokeTime()) + " returned element " + x
                            + ", which no add wrote", read);
                }
            }
            for (Operation add : ops) {
                if (add.f() == OpFunction.ADD && !add.indeterminate() && add.completeTime() < read.invokeTime()
                        && !read.output().elements().contains(add.input().text())) {
                    return why("add " + add.input().text() + " acknowledged at " + HistoryText.time(add.completeTime())
                            + ", then a read invoked at " + HistoryText.time(read.invokeTime()) + " does not contain "
                            + add.input().text(), add, read);
                }
            }
        }
        return why(general(ops));
    }

    private static String general(List<Operation> ops) {
        return "no order of these " + ops.size() + " operations that respects their real-time order explains every"
                + " result";
    }
}
