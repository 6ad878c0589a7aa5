package dev.weft.launcher.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * ddmin on cheap oracles: the result is 1-minimal, it is the same whatever the job count and however the parallel
 * answers arrive, and the final check removes every remaining element once with a fresh run.
 */
class DeltaDebuggerTest {

    /** An oracle over integers that fails when {@code failure} holds; counts its runs and records what it adopts. */
    static final class Cheap implements DeltaDebugger.Oracle<Integer> {
        final Predicate<List<Integer>> failure;
        final AtomicInteger runs = new AtomicInteger();
        final List<List<Integer>> adopted = Collections.synchronizedList(new ArrayList<>());
        final Set<List<Integer>> asked = ConcurrentHashMap.newKeySet();

        Cheap(Predicate<List<Integer>> failure) {
            this.failure = failure;
        }

        @Override
        public boolean fails(List<Integer> candidate) throws InterruptedException {
            runs.incrementAndGet();
            asked.add(candidate);
            // answers arrive in an order that has nothing to do with the candidates' order
            Thread.sleep((candidate.hashCode() & 3));
            return failure.test(candidate);
        }

        @Override
        public void adopted(List<Integer> candidate) {
            adopted.add(candidate);
        }
    }

    static List<Integer> upTo(int n) {
        return IntStream.range(0, n).boxed().toList();
    }

    static boolean isOneMinimal(List<Integer> result, Predicate<List<Integer>> failure) {
        if (!failure.test(result)) {
            return false;
        }
        for (int i = 0; i < result.size(); i++) {
            List<Integer> less = new ArrayList<>(result);
            less.remove(i);
            if (failure.test(less)) {
                return false;
            }
        }
        return true;
    }

    @Test
    void findsExactlyTheTwoDeviationsThatAreNeeded() throws InterruptedException {
        Predicate<List<Integer>> needs37and811 = c -> c.contains(37) && c.contains(811);
        for (int jobs : new int[] {1, 2, 4}) {
            Cheap oracle = new Cheap(needs37and811);
            List<Integer> result = new DeltaDebugger<>(oracle, jobs).minimize(upTo(1000));
            assertEquals(List.of(37, 811), result, "jobs " + jobs);
            assertTrue(isOneMinimal(result, needs37and811));
            // far fewer runs than trying every subset, or every pair
            assertTrue(oracle.runs.get() < 150, "runs: " + oracle.runs.get());
            // the last adopted candidate is the result (its evidence is what the shrink writes)
            assertEquals(result, oracle.adopted.get(oracle.adopted.size() - 1));
        }
    }

    @Test
    void theResultDoesNotDependOnTheJobCount() throws InterruptedException {
        // a failure with many 1-minimal answers: which one ddmin finds depends on the order it tries candidates in
        Predicate<List<Integer>> anyTwoMultiplesOf7 = c -> c.stream().filter(x -> x % 7 == 0).count() >= 2
                || c.contains(5) && c.contains(6);
        List<Integer> one = new DeltaDebugger<>(new Cheap(anyTwoMultiplesOf7), 1).minimize(upTo(300));
        for (int jobs : new int[] {2, 3, 8}) {
            for (int round = 0; round < 3; round++) {
                assertEquals(one, new DeltaDebugger<>(new Cheap(anyTwoMultiplesOf7), jobs).minimize(upTo(300)),
                        "jobs " + jobs);
            }
        }
        assertTrue(isOneMinimal(one, anyTwoMultiplesOf7), one.toString());
    }

    @Test
    void theFinalCheckRemovesEachRemainingElementOnceWithAFreshRun() throws InterruptedException {
        Predicate<List<Integer>> needs3 = c -> c.contains(3) && c.contains(4) && c.contains(90);
        Cheap oracle = new Cheap(needs3);
        DeltaDebugger<Integer> dd = new DeltaDebugger<>(oracle, 1);
        List<Integer> result = dd.minimize(upTo(128));
        assertEquals(List.of(3, 4, 90), result);
        assertEquals(3, dd.verificationRuns());
    }

    @Test
    void aFailureThatNeedsNothingShrinksToNothing() throws InterruptedException {
        Cheap oracle = new Cheap(c -> true);
        assertEquals(List.of(), new DeltaDebugger<>(oracle, 2).minimize(upTo(50)));
        assertEquals(1, oracle.runs.get(), "the empty plan is tried first");
    }

    @Test
    void aFlakyPassDuringShrinkingIsCaughtByTheFinalCheck() throws InterruptedException {
        // only 12 is needed, but the first time [12] alone is run it passes (a flaky run): ddmin then keeps a second
        // element beside 12, and only the final check — every element removed again with a fresh run — drops it
        AtomicInteger twelveAlone = new AtomicInteger();
        Cheap oracle = new Cheap(c -> c.contains(12) && !(c.equals(List.of(12)) && twelveAlone.incrementAndGet() == 1));
        DeltaDebugger<Integer> dd = new DeltaDebugger<>(oracle, 1);
        assertEquals(List.of(12), dd.minimize(upTo(20)));
        assertEquals(2, twelveAlone.get(), "[12] was run again by the final check");
        // ddmin stopped at [11, 12]; the check's first removal ([12] alone) failed at once, then [] passed
        assertEquals(2, dd.verificationRuns());
    }

    @Test
    void splitKeepsOrderAndSizes() {
        assertEquals(List.of(List.of(0, 1, 2), List.of(3, 4), List.of(5, 6)), DeltaDebugger.split(upTo(7), 3));
    }

    @Test
    void anInterruptedShrinkKeepsTheSmallestFailingListSoFar() {
        AtomicInteger calls = new AtomicInteger();
        DeltaDebugger<Integer> dd = new DeltaDebugger<>(c -> {
            if (calls.incrementAndGet() > 4) {
                throw new InterruptedException("stopped");
            }
            return c.contains(1) && c.contains(2);
        }, 1);
        try {
            dd.minimize(upTo(64));
        } catch (InterruptedException expected) {
            // below
        }
        List<Integer> best = dd.current();
        assertTrue(best.size() < 64 && best.contains(1) && best.contains(2), best.toString());
    }
}
