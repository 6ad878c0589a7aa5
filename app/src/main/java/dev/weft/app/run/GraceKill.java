package dev.weft.app.run;

import java.util.concurrent.TimeUnit;

/** The end of a stop the workbench asked for: a grace period for the process to end by itself, then a kill. */
public final class GraceKill {
    private GraceKill() {
    }

    /**
     * Waits up to {@code graceSeconds} for {@code process} (already asked to stop) to end; if it has not, runs
     * {@code killDescendants}, kills it and waits up to 2 s more. Blocks: call it off the UI thread.
     */
    public static void after(Process process, long graceSeconds, Runnable killDescendants) {
        try {
            if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                killDescendants.run();
                process.destroyForcibly();
                process.waitFor(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
