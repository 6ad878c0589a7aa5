package dev.weft.fuzz;

import dev.weft.check.Violation;
import dev.weft.net.NetSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Phase 1 (fuzz.md §5): executes the workload for every queued seed on {@code jobs} threads. The result
 * does not depend on the thread count or scheduling: a key's message is the one of the smallest queue
 * index that raised it, and seed sets are sorted. Only the time budget can make it depend on speed.
 */
public final class Sweep {

    /** Progress callbacks; called from worker threads. */
    public interface Listener {
        void seedDone(long tested, long failed);
    }

    /** Holds its own payload-blind copy of the ops (never the workload's payloads). */
    private final SweepExecutor executor;

    public Sweep(NetSpec net, List<Op> ops, List<String> invariants) {
        this.executor = new SweepExecutor(net, ops, invariants);
    }

    /** Per-key accumulation: first message by queue index, and the seed set. */
    private static final class Accumulator {
        long firstIndex = -1;
        String what;
        final SortedSet<Long> seeds = new TreeSet<>(Long::compareUnsigned);
    }

    public SweepResult run(SeedQueue queue, int threads, long budgetNanos, Listener listener) {
        return run(queue, 0, 1, threads, budgetNanos, listener);
    }

    /**
     * Sweeps only the queue entries of one shard: index i with {@code i % shardCount == shardIndex} (unsigned).
     * Findings keep global queue indices, so shards' results merge into the single sweep's ({@link SweepShard}).
     */
    public SweepResult run(SeedQueue queue, long shardIndex, long shardCount, int threads, long budgetNanos,
                           Listener listener) {
        long deadline = budgetNanos == 0 ? 0 : System.nanoTime() + budgetNanos;
        AtomicLong nextIndex = new AtomicLong();
        AtomicLong tested = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicBoolean budgetHit = new AtomicBoolean();
        AtomicBoolean abort = new AtomicBoolean();
        Map<ViolationKey, Accumulator> found = new TreeMap<>();
        long size = shardSize(queue.size(), shardIndex, shardCount);
        Runnable worker = () -> {
            SweepExecutor.Scratch scratch = executor.newScratch();
            while (true) {
                if (budgetNanos != 0 && System.nanoTime() - deadline >= 0) {
                    budgetHit.set(true);
                    return;
                }
                if (abort.get()) return;
                long local = nextIndex.getAndIncrement();
                if (Long.compareUnsigned(local, size) >= 0 || local == -1L) return;
                long index = shardIndex + local * shardCount;
                long seed = queue.seedAt(index);
                Map<ViolationKey, String> keys = executor.firstMessages(seed, scratch);
                long t = tested.incrementAndGet();
                long f = failed.get();
                if (!keys.isEmpty()) {
                    f = failed.incrementAndGet();
                    merge(found, index, seed, keys);
                }
                if (listener != null) listener.seedDone(t, f);
            }
        };
        int workers = Long.compareUnsigned(size, threads) < 0 ? (int) Math.max(size, 1) : Math.max(threads, 1);
        if (workers == 1) {
            worker.run();
        } else {
            List<Thread> pool = new ArrayList<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Runnable guarded = () -> {
                try {
                    worker.run();
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                    abort.set(true);
                }
            };
            for (int i = 0; i < workers; i++) {
                Thread th = new Thread(guarded, "weft-fuzz-sweep-" + i);
                th.setDaemon(true);
                pool.add(th);
                th.start();
            }
            for (Thread th : pool) {
                joinUninterruptibly(th);
            }
            Throwable t = failure.get();
            if (t instanceof RuntimeException re) throw re;
            if (t instanceof Error e) throw e;
        }
        List<SweepResult.Finding> findings = new ArrayList<>();
        synchronized (found) {
            for (Map.Entry<ViolationKey, Accumulator> e : found.entrySet()) {
                Accumulator a = e.getValue();
                findings.add(new SweepResult.Finding(e.getKey(), a.what, Collections.unmodifiableSortedSet(a.seeds),
                        a.firstIndex));
            }
        }
        return new SweepResult(tested.get(), failed.get(), budgetHit.get(), findings);
    }

    /** How many of a queue of {@code size} entries (unsigned) fall in shard {@code index} of {@code count}. */
    static long shardSize(long size, long index, long count) {
        if (count == 1) return size;
        if (Long.compareUnsigned(size, index) <= 0) return 0;
        return Long.divideUnsigned(size - index - 1, count) + 1;
    }

    /** Each key raised by one execution with the message of its first raise, in raise order. */
    static Map<ViolationKey, String> firstMessages(List<Violation> violations) {
        Map<ViolationKey, String> first = new LinkedHashMap<>();
        for (Violation v : violations) first.putIfAbsent(ViolationKey.of(v), v.message());
        return first;
    }

    private static void merge(Map<ViolationKey, Accumulator> found, long index, long seed, Map<ViolationKey, String> keys) {
        synchronized (found) {
            for (Map.Entry<ViolationKey, String> e : keys.entrySet()) {
                Accumulator a = found.computeIfAbsent(e.getKey(), k -> new Accumulator());
                if (a.firstIndex == -1 || Long.compareUnsigned(index, a.firstIndex) < 0) {
                    a.firstIndex = index;
                    a.what = e.getValue();
                }
                a.seeds.add(seed);
            }
        }
    }

    private static void joinUninterruptibly(Thread th) {
        boolean interrupted = false;
        while (true) {
            try {
                th.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) Thread.currentThread().interrupt();
    }
}
