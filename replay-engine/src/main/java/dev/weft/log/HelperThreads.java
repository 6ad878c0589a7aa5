package dev.weft.log;

import java.util.Collection;

/** Shared shutdown for the reader's helper threads (read-ahead, hash-ahead, background parsing). */
final class HelperThreads {

    private HelperThreads() {
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
