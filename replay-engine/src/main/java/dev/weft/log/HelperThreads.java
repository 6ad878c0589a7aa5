package dev.weft.log;

import java.util.Collection;
import java.util.concurrent.BlockingQueue;

/** Shared start, hand-off and shutdown for the reader's helper threads (read-ahead, hash-ahead, background parsing). */
final class HelperThreads {

    private HelperThreads() {
    }

    /** Starts {@code body} on a daemon thread (a reader the caller forgets to close must not keep the JVM alive). */
    static Thread startDaemon(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /**
     * The consumer's side of a hand-off: the next unit a helper filled, waiting for it. An interrupt becomes a read
     * error (the interrupt status kept), since the caller is in the middle of reading a log.
     */
    static <T> T take(BlockingQueue<T> handOff) throws WeftLogException {
        try {
            return handOff.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw WeftLogException.io("interrupted while reading", 0, e);
        }
    }

    /**
     * Stops {@code thread} and waits until it has ended. The thread may be blocked putting into a full hand-off
     * queue, so it is interrupted and the queue emptied; an interrupt that arrives while we wait is kept for the
     * caller instead of being swallowed or aborting the wait (a half-stopped helper would keep the file open).
     */
    static void stopAndJoin(Thread thread, Collection<?> handOff) {
        thread.interrupt();
        handOff.clear();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
