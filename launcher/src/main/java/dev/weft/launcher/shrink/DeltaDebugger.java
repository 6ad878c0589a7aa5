package dev.weft.launcher.shrink;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Delta debugging (Zeller and Hildebrandt's ddmin): from a list of elements whose presence makes a test fail, finds a
 * sub-list that still fails and is <em>1-minimal</em> — removing any one of its elements makes the failure go away.
 *
 * <p>Each round splits the current failing list into n parts and tries, in this order, every part alone and then
 * every complement (the list without one part); the first candidate <em>in that order</em> that fails becomes the
 * current list. With several jobs the candidates of a round run in parallel, but the one adopted is still the first
 * failing one in order, never the first to finish: the result depends on the oracle's answers only, not on the job
 * count or thread timing (more jobs may spend more runs, on candidates after the adopted one).
 *
 * <p>Candidates keep the elements' original order. A candidate that passed is remembered and not run again; one
 * that failed is adopted at once, so it is not asked again either. At the end every element of the result is
 * removed once more, each with a fresh run: if one of those still fails (a flaky oracle), shrinking goes on from it.
 *
 * @param <T> an element (a fault plan's deviation); equal elements are the same element
 */
public final class DeltaDebugger<T> {

    /** Runs a candidate: whether it still shows the failure. Called from up to {@code jobs} threads at once. */
    public interface Oracle<T> {
        boolean fails(List<T> candidate) throws InterruptedException;

        /** The candidate is now the smallest known failing list (its evidence is worth keeping). */
        default void adopted(List<T> candidate) {
        }
    }

    /** How long to wait for runs still going when a round ends abnormally (a run has its own time bound). */
    private static final long RUN_END_WAIT_SECS = 600;

    private final Oracle<T> oracle;
    private final int jobs;
    private final Set<List<T>> passed = new HashSet<>();
    private volatile List<T> current;
    private int verificationRuns;

    public DeltaDebugger(Oracle<T> oracle, int jobs) {
        if (jobs < 1) {
            throw new IllegalArgumentException("jobs must be at least 1");
        }
        this.oracle = oracle;
        this.jobs = jobs;
    }

    /** The smallest failing list known so far (what an interrupted shrink keeps); null before {@link #minimize}. */
    public List<T> current() {
        return current;
    }

    /** How many fresh runs the final 1-minimality check took (one per element of the result, per check). */
    public int verificationRuns() {
        return verificationRuns;
    }

    /**
     * A 1-minimal failing sub-list of {@code failing}, which the caller has seen fail. The empty list is tried first:
     * a failure that needs none of the elements shrinks to nothing.
     */
    public List<T> minimize(List<T> failing) throws InterruptedException {
        current = List.copyOf(failing);
        if (current.isEmpty()) {
            return current;
        }
        if (firstFailing(List.of(List.of())) == 0) {
            adopt(List.of());
            return current;
        }
        while (true) {
            ddmin();
            int removable = firstFailingFresh(singleRemovals(current));
            if (removable < 0) {
                return current;
            }
            adopt(without(current, removable)); // the oracle answered differently this time: go on from there
        }
    }

    /** Zeller's ddmin from {@link #current}: granularity n starts at 2, doubles when nothing smaller fails. */
    private void ddmin() throws InterruptedException {
        int n = 2;
        while (current.size() >= 2) {
            List<List<T>> parts = split(current, n);
            List<List<T>> candidates = new ArrayList<>(parts);
            if (n > 2) { // with two parts each complement is the other part
                for (int i = 0; i < parts.size(); i++) {
                    candidates.add(complement(current, parts, i));
                }
            }
            int k = firstFailing(candidates);
            if (k >= 0) {
                adopt(candidates.get(k));
                n = k < parts.size() ? 2 : Math.max(n - 1, 2);
            } else if (n < current.size()) {
                n = Math.min(2 * n, current.size());
            } else {
                return; // every single element was removed on its own at this granularity, and none still failed
            }
        }
    }

    private void adopt(List<T> candidate) {
        current = List.copyOf(candidate);
        oracle.adopted(current);
    }

    /** {@code list} cut into n parts of nearly equal size, in order (the first ones one longer). */
    static <T> List<List<T>> split(List<T> list, int n) {
        List<List<T>> parts = new ArrayList<>(n);
        int start = 0;
        for (int i = 0; i < n; i++) {
            int end = start + list.size() / n + (i < list.size() % n ? 1 : 0);
            parts.add(List.copyOf(list.subList(start, end)));
            start = end;
        }
        return parts;
    }

    private static <T> List<T> complement(List<T> list, List<List<T>> parts, int skip) {
        List<T> c = new ArrayList<>(list.size());
        for (int i = 0; i < parts.size(); i++) {
            if (i != skip) {
                c.addAll(parts.get(i));
            }
        }
        return c;
    }

    private static <T> List<T> without(List<T> list, int index) {
        List<T> c = new ArrayList<>(list);
        c.remove(index);
        return c;
    }

    private List<List<T>> singleRemovals(List<T> list) {
        List<List<T>> c = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            c.add(without(list, i));
        }
        return c;
    }

    /** The index of the first candidate in order that fails (known passes are not run again), or -1. */
    private int firstFailing(List<List<T>> candidates) throws InterruptedException {
        return first(candidates, false);
    }

    /** As {@link #firstFailing}, but every candidate is run afresh: the final 1-minimality check. */
    private int firstFailingFresh(List<List<T>> candidates) throws InterruptedException {
        return first(candidates, true);
    }

    private record Answer(int index, boolean fails) {
    }

    private int first(List<List<T>> candidates, boolean fresh) throws InterruptedException {
        if (jobs == 1) {
            for (int i = 0; i < candidates.size(); i++) {
                if (ask(candidates.get(i), fresh)) {
                    return i;
                }
            }
            return -1;
        }
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "shrink-run");
            t.setDaemon(true);
            return t;
        });
        try {
            CompletionService<Answer> done = new ExecutorCompletionService<>(pool);
            int next = 0;
            int inFlight = 0;
            int best = -1;
            while (true) {
                // start candidates in order, but none after a known failure: only earlier ones can still win
                while (inFlight < jobs && next < candidates.size() && (best < 0 || next < best)) {
                    int i = next++;
                    List<T> c = candidates.get(i);
                    done.submit(() -> new Answer(i, ask(c, fresh)));
                    inFlight++;
                }
                if (inFlight == 0) {
                    return best;
                }
                Answer a = answer(done.take());
                inFlight--;
                if (a.fails() && (best < 0 || a.index() < best)) {
                    best = a.index();
                }
            }
        } finally {
            // runs still going when a round ends abnormally (Ctrl-C stops them; an I/O error lets them finish, not
            // interrupted, so no child run is left orphaned) end before the caller goes on: none is still writing into
            // the candidates' folder when it is cleaned up
            pool.shutdown();
            pool.awaitTermination(RUN_END_WAIT_SECS, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    private boolean ask(List<T> candidate, boolean fresh) throws InterruptedException {
        if (fresh) {
            synchronized (this) {
                verificationRuns++;
            }
        } else {
            synchronized (passed) {
                if (passed.contains(candidate)) {
                    return false;
                }
            }
        }
        boolean fails = oracle.fails(candidate);
        if (!fails) {
            synchronized (passed) {
                passed.add(candidate);
            }
        }
        return fails;
    }

    private static Answer answer(Future<Answer> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof InterruptedException ie) {
                throw ie;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        }
    }
}
