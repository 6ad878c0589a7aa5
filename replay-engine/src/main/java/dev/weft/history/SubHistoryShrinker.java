package dev.weft.history;

import java.util.ArrayList;
import java.util.List;

/**
 * From a history the search found not linearizable, the smallest inconsistent sub-history it can find: first the
 * operations invoked up to the return the search could not reach (already inconsistent, see
 * {@link LinearizabilitySearch.Result}), then the longest run of early operations that can go (a binary search),
 * then chunks of halving size removed while the rest stays inconsistent. Every trial is a search of its own;
 * all of them together share a step budget, so a pathological history ends with a smaller, not minimal, result
 * (and says so). Deterministic: the trials are a function of the history alone.
 */
final class SubHistoryShrinker {

    /** Steps of all trials together (each step tries one entry of the search). */
    static final long BUDGET = 20_000_000L;

    /** The sub-history, in invocation order, and whether shrinking ran to its end within the budget. */
    record Shrunk(List<Operation> operations, boolean minimal) {
    }

    private final Model model;
    /** Every value some operation of the whole history writes (or adds). */
    private final java.util.Set<String> producedInHistory;
    private long budget = BUDGET;
    private boolean exhausted;

    private SubHistoryShrinker(Model model, List<Operation> history) {
        this.model = model;
        this.producedInHistory = produced(history);
    }

    static Shrunk shrink(List<Operation> ops, Model model, LinearizabilitySearch.Result failure) {
        return new SubHistoryShrinker(model, ops).run(ops, failure);
    }

    private Shrunk run(List<Operation> ops, LinearizabilitySearch.Result failure) {
        List<Operation> current = new ArrayList<>();
        for (Operation op : ops) {
            if (op.invokeTime() <= failure.failTime()) {
                current.add(op);
            }
        }
        if (!fails(current)) {
            current = new ArrayList<>(ops); // cannot happen by the search's argument; keep the whole history then
        }
        int lo = 0;
        int hi = current.size() - 1;
        while (lo < hi && !exhausted) {
            int mid = (lo + hi + 1) >>> 1;
            if (fails(withProducers(current, mid))) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        current = withProducers(current, lo);
        for (int chunk = Math.max(1, current.size() / 2); chunk >= 1 && !exhausted; chunk /= 2) {
            current = withoutChunks(current, chunk);
        }
        // a removal can make an earlier one possible (a read that kept a write needed is gone): repeat to the end
        for (int before = -1; before != current.size() && !exhausted; ) {
            before = current.size();
            current = withoutChunks(current, 1);
        }
        return new Shrunk(List.copyOf(current), !exhausted);
    }

    /** One pass removing each chunk of {@code chunk} operations that the rest stays inconsistent without. */
    private List<Operation> withoutChunks(List<Operation> current, int chunk) {
        int i = 0;
        while (i < current.size() && !exhausted) {
            List<Operation> trial = new ArrayList<>(current.subList(0, i));
            trial.addAll(current.subList(Math.min(current.size(), i + chunk), current.size()));
            if (!trial.isEmpty() && fails(trial)) {
                current = trial;
            } else {
                i += chunk;
            }
        }
        return current;
    }

    /**
     * Whether these operations alone are not linearizable (within what is left of the budget). A sub-history that
     * drops every write of a value one of its reads returns is not a candidate: it would be inconsistent trivially
     * ("a read of a value nobody wrote") and explain nothing about the history it came from.
     */
    private boolean fails(List<Operation> ops) {
        if (!closed(ops)) {
            return false;
        }
        if (budget <= 0) {
            exhausted = true;
            return false;
        }
        LinearizabilitySearch.Result r = LinearizabilitySearch.check(renumbered(ops), model, budget);
        budget -= r.steps();
        if (r.outcome() == LinearizabilitySearch.Outcome.UNDECIDED) {
            exhausted = true;
            return false;
        }
        return r.outcome() == LinearizabilitySearch.Outcome.NOT_LINEARIZABLE;
    }

    /**
     * The operations of {@code ops} from index {@code from} on, plus, for each value a read among them returns and
     * none of them writes, the last earlier operation that writes it (so dropping the early history keeps every
     * read explainable).
     */
    private List<Operation> withProducers(List<Operation> ops, int from) {
        List<Operation> tail = ops.subList(from, ops.size());
        java.util.Set<String> produced = produced(tail);
        java.util.Set<String> missing = new java.util.TreeSet<>();
        for (Operation op : tail) {
            if (op.f() == OpFunction.READ && !op.indeterminate()) {
                for (String v : readValues(op)) {
                    if (!produced.contains(v)) {
                        missing.add(v);
                    }
                }
            }
        }
        List<Operation> out = new ArrayList<>();
        for (int i = from - 1; i >= 0 && !missing.isEmpty(); i--) {
            Operation op = ops.get(i);
            java.util.Set<String> by = produced(List.of(op));
            if (by.removeIf(missing::remove)) {
                out.add(op);
            }
        }
        java.util.Collections.reverse(out);
        out.addAll(tail);
        return out;
    }

    private boolean closed(List<Operation> ops) {
        java.util.Set<String> produced = produced(ops);
        for (Operation op : ops) {
            if (op.f() != OpFunction.READ || op.indeterminate()) {
                continue;
            }
            List<String> seen = readValues(op);
            for (String v : seen) {
                if (producedInHistory.contains(v) && !produced.contains(v)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** What a read reports: a register's value, or a set's elements. */
    private List<String> readValues(Operation read) {
        return model instanceof SetModel && read.output().isArray() ? read.output().elements()
                : List.of(read.output().text());
    }

    /** The values written, cas'd in or added by these operations. */
    private static java.util.Set<String> produced(List<Operation> ops) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (Operation op : ops) {
            switch (op.f()) {
                case WRITE, ADD -> out.add(op.input().text());
                case CAS -> out.add(op.input().elements().get(1));
                default -> { }
            }
        }
        return out;
    }

    /** The same operations with ids 0..n-1 in their order (the search's input form). */
    static List<Operation> renumbered(List<Operation> ops) {
        List<Operation> out = new ArrayList<>(ops.size());
        for (int i = 0; i < ops.size(); i++) {
            out.add(ops.get(i).withId(i));
        }
        return out;
    }
}
