package dev.weft.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The search (with its memo and its eager reads, and after dropping unobserved indeterminate writes) agrees with brute force on thousands of small random register and
 * cas-register histories, indeterminate operations included: every subset of the indeterminate operations, every
 * order of the chosen operations that respects real time, run through the model.
 */
class SearchAgainstBruteForceTest {

    private static final String[] VALUES = {"null", "1", "2"};

    @Test
    void smallRandomHistoriesGetTheBruteForceVerdict() {
        Random rnd = new Random(31);
        int linearizable = 0;
        for (int round = 0; round < 5000; round++) {
            List<Operation> ops = randomHistory(rnd, 2 + rnd.nextInt(5));
            boolean expected = bruteForce(ops);
            LinearizabilitySearch.Result r = LinearizabilitySearch.check(ops, new RegisterModel(), -1);
            assertEquals(expected, r.linearizable(), "round " + round + ": " + ops);
            List<Operation> pruned = SubHistoryShrinker.renumbered(LinearizabilityChecker.withoutUnobservedIndeterminate(ops));
            assertEquals(expected, LinearizabilitySearch.check(pruned, new RegisterModel(), -1).linearizable(),
                    "round " + round + ", unobserved indeterminate operations dropped: " + ops);
            linearizable += expected ? 1 : 0;
        }
        // both verdicts are well represented, so the comparison means something
        assertEquals(true, linearizable > 800 && linearizable < 4200, "linearizable: " + linearizable);
    }

    private static List<Operation> randomHistory(Random rnd, int n) {
        List<long[]> spans = new ArrayList<>();
        List<Operation> raw = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long from = rnd.nextInt(20);
            long to = from + 1 + rnd.nextInt(8);
            boolean info = rnd.nextInt(5) == 0;
            OpFunction f = OpFunction.values()[rnd.nextInt(3)];
            HistoryValue in = HistoryValue.NULL;
            HistoryValue out = HistoryValue.NULL;
            switch (f) {
                case WRITE -> in = HistoryValue.scalar(VALUES[1 + rnd.nextInt(2)]);
                case CAS -> in = HistoryValue.array(List.of(VALUES[rnd.nextInt(3)], VALUES[1 + rnd.nextInt(2)]));
                default -> {
                    out = HistoryValue.scalar(VALUES[rnd.nextInt(3)]);
                    info = false; // an indeterminate read is dropped before the search
                }
            }
            raw.add(new Operation(0, -1, i, f, null, in, out, from, info ? Long.MAX_VALUE : to, info, i + 1, 0));
            spans.add(new long[] {from, to});
        }
        raw.sort((a, b) -> a.invokeTime() != b.invokeTime() ? Long.compare(a.invokeTime(), b.invokeTime())
                : Integer.compare(a.invokeLine(), b.invokeLine()));
        return SubHistoryShrinker.renumbered(raw);
    }

    /** Some subset of the indeterminate operations plus every ok one, in some real-time-respecting order, works. */
    private static boolean bruteForce(List<Operation> ops) {
        List<Integer> infos = new ArrayList<>();
        for (Operation op : ops) {
            if (op.indeterminate()) {
                infos.add(op.id());
            }
        }
        for (int mask = 0; mask < 1 << infos.size(); mask++) {
            List<Operation> chosen = new ArrayList<>();
            for (Operation op : ops) {
                int k = infos.indexOf(op.id());
                if (k < 0 || (mask & 1 << k) != 0) {
                    chosen.add(op);
                }
            }
            if (someOrder(chosen, new ArrayList<>(), new RegisterModel().initial())) {
                return true;
            }
        }
        return false;
    }

    private static boolean someOrder(List<Operation> left, List<Operation> done, Object state) {
        if (left.isEmpty()) {
            return true;
        }
        for (Operation op : left) {
            // op may go next only if no other remaining operation completed before op was invoked
            boolean allowed = left.stream().noneMatch(o -> o != op && o.completeTime() < op.invokeTime());
            Object after = allowed ? new RegisterModel().step(state, op) : null;
            if (after != null) {
                List<Operation> rest = new ArrayList<>(left);
                rest.remove(op);
                done.add(op);
                if (someOrder(rest, done, after)) {
                    return true;
                }
                done.remove(done.size() - 1);
            }
        }
        return false;
    }
}
