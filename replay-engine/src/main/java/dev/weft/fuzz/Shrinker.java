package dev.weft.fuzz;

import dev.weft.net.NetSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Shrinks a failing workload for one violation key (fuzz.md §7): truncate after the violation, ddmin chunk
 * removal, single-op removal to a fixpoint, payload truncation, connect GC. Ops are only ever removed or
 * have their payload cut; seed, net spec, invariants and key never change.
 *
 * <p>ddmin candidates of one round may be evaluated in parallel (inside a fork-join pool); the round's
 * execution count is fixed before any runs (the first {@code BUDGET − executions} chunks in index order)
 * and the smallest failing chunk index wins, so results never depend on timing or the thread count.
 */
public final class Shrinker {

    /** The execution budget of one shrink. */
    public static final int BUDGET = 4000;

    private final long seed;
    private final NetSpec net;
    private final List<String> invariants;
    private final ViolationKey key;
    private final boolean parallel;
    private final int budget;
    private int executions;

    /**
     * @param parallel evaluate ddmin candidates as fork-join subtasks; only meaningful when called inside a
     *                 {@link java.util.concurrent.ForkJoinPool}
     */
    public Shrinker(long seed, NetSpec net, List<String> invariants, ViolationKey key, boolean parallel) {
        this(seed, net, invariants, key, parallel, BUDGET);
    }

    /** With another execution budget (tests exercise behaviour at the budget with small values). */
    Shrinker(long seed, NetSpec net, List<String> invariants, ViolationKey key, boolean parallel, int budget) {
        this.budget = budget;
        this.seed = seed;
        this.net = net;
        this.invariants = List.copyOf(invariants);
        this.key = key;
        this.parallel = parallel;
    }

    public ShrinkResult shrink(List<Op> input) {
        executions = 1;
        int k = Executor.firstIndexOf(seed, net, input, invariants, key);
        if (k < 0) return new ShrinkResult(input, input.size(), input.size(), executions, false);
        List<Op> cur = new ArrayList<>(input.subList(0, k + 1));
        cur = ddmin(cur);
        cur = oneByOne(cur);
        cur = cutPayloads(cur);
        cur = collectConnects(cur, input);
        return new ShrinkResult(cur, input.size(), cur.size(), executions, executions >= budget);
    }

    private boolean fails(List<Op> candidate) {
        executions++;
        return failsUncounted(candidate);
    }

    private boolean failsUncounted(List<Op> candidate) {
        return Executor.firstIndexOf(seed, net, candidate, invariants, key) >= 0;
    }

    private static boolean removable(Op op) {
        return !(op instanceof Op.Connect);
    }

    private List<Op> ddmin(List<Op> start) {
        List<Op> cur = start;
        int n = 2;
        while (true) {
            int[] positions = removablePositions(cur);
            int r = positions.length;
            if (r < 2 || n > r || executions >= budget) break;
            int size = (r + n - 1) / n;
            int chunks = (r + size - 1) / size;
            int runnable = Math.min(chunks, budget - executions);
            executions += runnable;
            int winner = smallestFailingChunk(cur, positions, size, runnable);
            if (winner >= 0) {
                cur = withoutChunk(cur, positions, winner, size);
                n = Math.max(n - 1, 2);
            } else {
                if (n >= r) break;
                n = Math.min(2 * n, r);
            }
        }
        return cur;
    }

    /** The smallest j below runnable whose candidate fails, or -1; candidates above a known winner are skipped. */
    private int smallestFailingChunk(List<Op> cur, int[] positions, int size, int runnable) {
        if (!parallel || runnable < 2 || !ForkJoinTask.inForkJoinPool()) {
            for (int j = 0; j < runnable; j++) {
                if (failsUncounted(withoutChunk(cur, positions, j, size))) return j;
            }
            return -1;
        }
        AtomicInteger best = new AtomicInteger(Integer.MAX_VALUE);
        List<ForkJoinTask<?>> tasks = new ArrayList<>(runnable);
        for (int j = 0; j < runnable; j++) {
            int chunk = j;
            tasks.add(ForkJoinTask.adapt(() -> {
                if (chunk > best.get()) return;
                if (failsUncounted(withoutChunk(cur, positions, chunk, size))) best.accumulateAndGet(chunk, Math::min);
            }));
        }
        ForkJoinTask.invokeAll(tasks);
        int b = best.get();
        return b == Integer.MAX_VALUE ? -1 : b;
    }

    private static int[] removablePositions(List<Op> ops) {
        int count = 0;
        for (Op op : ops) if (removable(op)) count++;
        int[] out = new int[count];
        int j = 0;
        for (int i = 0; i < ops.size(); i++) if (removable(ops.get(i))) out[j++] = i;
        return out;
    }

    private static List<Op> withoutChunk(List<Op> cur, int[] positions, int chunk, int size) {
        int from = chunk * size;
        int to = Math.min(from + size, positions.length);
        List<Op> out = new ArrayList<>(cur.size() - (to - from));
        int p = from;
        for (int i = 0; i < cur.size(); i++) {
            if (p < to && positions[p] == i) {
                p++;
                continue;
            }
            out.add(cur.get(i));
        }
        return out;
    }

    private List<Op> oneByOne(List<Op> start) {
        List<Op> cur = start;
        boolean changed = true;
        while (changed && executions < budget) {
            changed = false;
            int i = 0;
            while (i < cur.size()) {
                if (removable(cur.get(i))) {
                    List<Op> candidate = new ArrayList<>(cur);
                    candidate.remove(i);
                    if (fails(candidate)) {
                        cur = candidate;
                        changed = true;
                        continue;
                    }
                }
                i++;
            }
        }
        return cur;
    }

    private List<Op> cutPayloads(List<Op> start) {
        List<Op> cur = start;
        for (int i = 0; i < cur.size(); i++) {
            if (executions >= budget) break;
            if (cur.get(i) instanceof Op.Send s && s.payload().length > 1) {
                List<Op> candidate = new ArrayList<>(cur);
                candidate.set(i, s.withPayloadPrefix(1));
                if (fails(candidate)) cur = candidate;
            }
        }
        return cur;
    }

    private List<Op> collectConnects(List<Op> cur, List<Op> original) {
        Set<Long> used = new HashSet<>();
        for (Op op : cur) if (!(op instanceof Op.Connect)) used.add(op.conn());
        List<Op> kept = new ArrayList<>(cur.size());
        for (Op op : cur) if (!(op instanceof Op.Connect) || used.contains(op.conn())) kept.add(op);
        if (fails(kept)) return kept;
        // Not reachable in practice (a connect never affects other conns), kept as specified.
        for (Op op : original) {
            if (op instanceof Op.Connect && !kept.contains(op)) kept.add(0, op);
        }
        return kept;
    }
}
