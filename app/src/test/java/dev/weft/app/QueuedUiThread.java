package dev.weft.app;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The "UI thread" of a view-model test without a toolkit: what the model hands over (as it would to
 * Platform.runLater) waits here until the test runs it, on the test's own thread.
 */
public final class QueuedUiThread {

    private final LinkedBlockingQueue<Runnable> handed = new LinkedBlockingQueue<>();

    /** Hands work to this thread: what a model under test is given in place of {@code Platform::runLater}. */
    public void post(Runnable work) {
        handed.add(work);
    }

    /** Runs what was handed over until {@code done} holds; fails after {@code timeout}. */
    public void runUntil(BooleanSupplier done, Duration timeout) throws InterruptedException {
        runUntil(done, timeout, () -> "");
    }

    /** As {@link #runUntil(BooleanSupplier, Duration)}, the failure saying where the model got to ({@code where}). */
    public void runUntil(BooleanSupplier done, Duration timeout, Supplier<String> where) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            Runnable r = handed.poll(100, TimeUnit.MILLISECONDS);
            if (r != null) r.run();
            if (System.nanoTime() > deadline) throw new AssertionError("the model never got there: " + where.get());
        }
    }
}
