package dev.weft.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.NetSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import org.junit.jupiter.api.Test;

/**
 * At the execution budget the reference's result depends on thread timing; ours must not. With every budget
 * from 1 upwards, sequential and parallel (4 workers) shrinks give the same ops and counts, and the
 * budget flag says whether the count reached the budget.
 */
class ShrinkerBudgetTest {

    @Test
    void resultsAtEveryBudgetAreTheSameSequentialAndParallel() throws Exception {
        NetSpec net = NetSpec.parse("latency=uniform:0-8000,loss=0.02");
        List<String> inv = List.of("fifo", "dup");
        List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(3, 120, 4, 5));
        List<ViolationKey> keys = new ArrayList<>(Sweep.firstMessages(Executor.execute(3, net, ops, inv).violations()).keySet());
        assertTrue(keys.size() >= 3);
        ForkJoinPool pool = new ForkJoinPool(4);
        try {
            for (ViolationKey key : keys) {
                int full = new Shrinker(3, net, inv, key, false).shrink(ops).executions();
                List<Integer> budgets = new ArrayList<>();
                for (int b = 1; b <= full + 2; b += Math.max(1, full / 40)) budgets.add(b);
                budgets.add(full);
                for (int budget : budgets) {
                    ShrinkResult seq = new Shrinker(3, net, inv, key, false, budget).shrink(ops);
                    ShrinkResult par = pool.invoke(ForkJoinTask.adapt(() -> new Shrinker(3, net, inv, key, true, budget).shrink(ops)));
                    assertEquals(seq, par, key + " budget " + budget);
                    assertEquals(seq.executions() >= budget, seq.budgetExhausted());
                    assertTrue(Executor.firstIndexOf(3, net, seq.ops(), inv, key) >= 0, "a budget-cut shrink still fails");
                    ShrinkResult again = new Shrinker(3, net, inv, key, true, budget).shrink(ops);
                    assertEquals(seq, again);
                }
            }
        } finally {
            pool.shutdown();
        }
    }
}
