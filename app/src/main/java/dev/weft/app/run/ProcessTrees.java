package dev.weft.app.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The process tree a workbench session started (a child JVM and what runs under it): what is in it, and its end. */
public final class ProcessTrees {
    private ProcessTrees() {
    }

    /** The process and every process under it, as they are now. */
    public static List<ProcessHandle> of(Process process) {
        List<ProcessHandle> all = new ArrayList<>();
        all.add(process.toHandle());
        process.descendants().forEach(all::add);
        return all;
    }

    /**
     * Waits up to {@code graceSeconds} for {@code process} (already asked to stop) to end; if it has not, runs
     * {@code killDescendants}, kills it and waits up to 2 s more. Blocks: call it off the UI thread.
     */
    public static void killAfterGrace(Process process, long graceSeconds, Runnable killDescendants) {
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
