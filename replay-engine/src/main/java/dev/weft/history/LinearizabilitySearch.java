package dev.weft.history;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a history of one object is linearizable: the Wing–Gong search with Lowe's memoisation. The history is a
 * list of call and return entries in time order; the search walks it, tries to linearize each pending call whose
 * effect the model accepts, backtracks when it meets the return of an operation it has not linearized, and skips
 * a (linearized set, state) pair it has already explored. An indeterminate operation has no return entry: it may
 * be linearized anywhere after its call, or never (it did not take effect), so the search succeeds once every
 * {@code ok} operation is linearized.
 *
 * <p>A read that the current state explains is linearized at once with no alternative kept: nothing it could be
 * ordered after is still required (every operation that returned before its call is linearized by the time the scan
 * reaches its call), and it changes no state, so if any linearization exists from here, one with the read first
 * exists. Backtracking past such a read backtracks past its parent too. Without this, concurrent reads multiply the
 * explored sets by two each.
 *
 * <p>Entries at one instant: calls come before returns, so operations whose times touch count as concurrent (the
 * lenient reading; a clock that never repeats a reading, like the shim's, makes ties rare).
 */
public final class LinearizabilitySearch {

    /**
     * The outcome. When not linearizable, {@code failedOp} is the operation whose return no linearization could
     * reach and {@code failTime} that return's time: the operations invoked up to then are already inconsistent.
     */
    public record Result(Outcome outcome, int failedOp, long failTime, long steps) {
        public boolean linearizable() {
            return outcome == Outcome.LINEARIZABLE;
        }
    }

    /** UNDECIDED: the search used up its step budget. */
    public enum Outcome { LINEARIZABLE, NOT_LINEARIZABLE, UNDECIDED }

    private LinearizabilitySearch() {
    }

    /** {@code ops} must have ids 0..n-1 in invocation order; {@code maxSteps} bounds the work (-1: none). */
    public static Result check(List<Operation> ops, Model model, long maxSteps) {
        int n = ops.size();
        int returns = 0;
        for (int i = 0; i < n; i++) {
            Operation op = ops.get(i);
            if (op.id() != i) {
                throw new IllegalArgumentException("operation ids must be 0..n-1 in list order; " + op.id() + " at " + i);
            }
            if (!op.indeterminate()) {
                returns++;
            }
        }
        int size = n + returns;
        // entry e < n is the call of op e; entry n + k is the return of the k-th determinate op
        long[] time = new long[size];
        int[] opOf = new int[size];
        int[] returnOf = new int[n];
        int r = n;
        for (Operation op : ops) {
            time[op.id()] = op.invokeTime();
            opOf[op.id()] = op.id();
            returnOf[op.id()] = -1;
            if (!op.indeterminate()) {
                time[r] = op.completeTime();
                opOf[r] = op.id();
                returnOf[op.id()] = r;
                r++;
            }
        }
        Integer[] order = new Integer[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(time[a], time[b]);
            if (c != 0) {
                return c;
            }
            boolean ca = a < n;
            boolean cb = b < n;
            if (ca != cb) {
                return ca ? -1 : 1;
            }
            return Integer.compare(opOf[a], opOf[b]);
        });
        // a doubly linked list over entries; index size is the head sentinel, -1 the end
        int head = size;
        int[] next = new int[size + 1];
        int[] prev = new int[size + 1];
        int last = head;
        for (int i = 0; i < size; i++) {
            int e = order[i];
            next[last] = e;
            prev[e] = last;
            last = e;
        }
        next[last] = -1;

        LinearizedSet linearized = new LinearizedSet(n);
        Set<Memo> seen = new HashSet<>();
        int[] stackEntry = new int[n];
        Object[] stackState = new Object[n];
        boolean[] stackForced = new boolean[n];
        int depth = 0;
        Object state = model.initial();
        int okLeft = returns;
        long steps = 0;
        int entry = next[head];
        while (okLeft > 0) {
            if (++steps > maxSteps && maxSteps >= 0) {
                return new Result(Outcome.UNDECIDED, -1, 0, steps);
            }
            if (entry < n) {
                Operation op = ops.get(entry);
                Object after = model.step(state, op);
                boolean forcedRead = false;
                if (after != null) {
                    forcedRead = op.f() == OpFunction.READ && after.equals(state);
                    linearized.set(entry);
                    if (seen.add(new Memo(linearized.snapshot(), after))) {
                        stackEntry[depth] = entry;
                        stackState[depth] = state;
                        stackForced[depth] = forcedRead;
                        depth++;
                        state = after;
                        unlink(entry, next, prev);
                        if (returnOf[entry] >= 0) {
                            unlink(returnOf[entry], next, prev);
                            okLeft--;
                        }
                        entry = next[head];
                        continue;
                    }
                    linearized.clear(entry);
                }
                if (!forcedRead) {
                    entry = next[entry];
                    continue;
                }
                // the read first was explored before and failed: so does this configuration
            }
            {
                int call;
                boolean forced;
                do {
                    if (depth == 0) {
                        return new Result(Outcome.NOT_LINEARIZABLE, opOf[entry], time[entry], steps);
                    }
                    depth--;
                    call = stackEntry[depth];
                    forced = stackForced[depth];
                    state = stackState[depth];
                    stackState[depth] = null;
                    linearized.clear(call);
                    if (returnOf[call] >= 0) {
                        relink(returnOf[call], next, prev);
                        okLeft++;
                    }
                    relink(call, next, prev);
                } while (forced);
                entry = next[call];
            }
        }
        return new Result(Outcome.LINEARIZABLE, -1, 0, steps);
    }

    private static void unlink(int e, int[] next, int[] prev) {
        next[prev[e]] = next[e];
        if (next[e] >= 0) {
            prev[next[e]] = prev[e];
        }
    }

    /** Undoes {@link #unlink} (in the reverse order of the unlinks, as the stack guarantees). */
    private static void relink(int e, int[] next, int[] prev) {
        next[prev[e]] = e;
        if (next[e] >= 0) {
            prev[next[e]] = e;
        }
    }

    private record Memo(LinearizedSet.Snapshot linearized, Object state) {
    }
}
