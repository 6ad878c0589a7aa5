package dev.weft.launcher.run;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Starts this host's node processes concurrently and hands them back in the order asked for.
 *
 * <p>Why: a start is mostly waiting (the JDK's {@code jspawnhelper} exec, then {@code weft_exec}'s namespaces and the
 * target's exec, which the JVM waits to hear of), and one after another they were half of the fixed cost of a 7-node
 * run (docs/benchmarks.md, "Issue 24, third round"). Nothing the run records depends on which process is spawned
 * first: a node's id, seed and broker address are in its environment, and the broker orders everything the nodes do
 * by their ids and virtual clocks (a windowed run seals no window before every expected node has said hello), as it
 * did when node 0 was already running while node 6 was being spawned.
 */
final class ConcurrentStarts {
    /** More threads than this only queue on the kernel's fork and exec (2-core machines are the common case). */
    static final int MAX_THREADS = 8;

    /** One start: the node's process, or why it could not start. */
    record Started<P extends RunningNode>(long nodeId, P process, IOException failure) {
    }

    /** Starts one node's process (a {@link NodeProcess#start} call). */
    @FunctionalInterface
    interface Start<P extends RunningNode> {
        P start(long nodeId) throws IOException;
    }

    private ConcurrentStarts() {
    }

    /** Runs {@code start} for every id, up to {@link #MAX_THREADS} at a time; the results come in the order of ids. */
    static <P extends RunningNode> List<Started<P>> startAll(List<Long> ids, Start<P> start)
            throws InterruptedException {
        if (ids.isEmpty()) {
            return List.of();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(ids.size(), MAX_THREADS), r -> {
            Thread t = new Thread(r, "weft-node-start");
            t.setDaemon(true);
            return t;
        });
        try {
            Map<Long, Future<P>> futures = new LinkedHashMap<>();
            for (long id : ids) {
                Callable<P> task = () -> start.start(id);
                futures.put(id, pool.submit(task));
            }
            List<Started<P>> out = new ArrayList<>();
            for (Map.Entry<Long, Future<P>> e : futures.entrySet()) {
                try {
                    out.add(new Started<>(e.getKey(), e.getValue().get(), null));
                } catch (InterruptedException stop) {
                    killWhenStarted(futures.values());
                    throw stop;
                } catch (ExecutionException failed) {
                    Throwable cause = failed.getCause();
                    if (cause instanceof IOException io) {
                        out.add(new Started<>(e.getKey(), null, io));
                    } else if (cause instanceof RuntimeException re) {
                        throw re;
                    } else {
                        throw new IllegalStateException(cause);
                    }
                }
            }
            return out;
        } finally {
            pool.shutdown();
        }
    }

    /** Interrupted while starting: whatever was or is still being started must not outlive the run. */
    private static void killWhenStarted(Iterable<? extends Future<? extends RunningNode>> futures) {
        for (Future<? extends RunningNode> f : futures) {
            boolean interrupted = false;
            while (true) {
                try {
                    f.get().kill(); // (a start takes milliseconds: waiting for it here is bounded)
                    break;
                } catch (InterruptedException again) {
                    interrupted = true;
                } catch (ExecutionException failed) {
                    break; // never started
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
