package dev.weft.replay;

import dev.weft.log.LogHeader;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanException;
import dev.weft.net.FaultPlanJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where the fault plan of a recording made with {@code weft run --plan} lives (docs/fault-plans.md): beside it, as
 * {@code LOG.plan.json}, and its header's {@code meta.plan} is the digest of that file's bytes. A seeded recording
 * has no {@code meta.plan} and needs no plan.
 */
public final class PlanSidecar {

    public static final String SUFFIX = ".plan.json";

    private PlanSidecar() {
    }

    /** A recording's plan is missing, altered or unusable; the message is one line naming the file. */
    public static final class Problem extends Exception {
        public Problem(String message) {
            super(message);
        }
    }

    public static Path of(Path log) {
        return log.resolveSibling(log.getFileName() + SUFFIX);
    }

    /** The plan a recording was made with, or null for a seeded recording. */
    public static FaultPlan forRecording(Path log, LogHeader header) throws Problem {
        String digest = header.meta() == null ? null : header.meta().plan();
        if (digest == null) return null;
        Path file = of(log);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new Problem(file + ": missing: the recording was made with a fault plan (meta.plan " + digest
                    + ") and replays only with it");
        } catch (IOException e) {
            throw new Problem(file + ": cannot read: " + e.getMessage());
        }
        String actual = FaultPlanJson.digest(bytes);
        if (!actual.equals(digest)) {
            throw new Problem(file + ": digest " + actual + " is not the recording's meta.plan " + digest
                    + " (the plan beside the recording is not the one it was made with)");
        }
        try {
            return FaultPlanJson.parse(bytes);
        } catch (FaultPlanException e) {
            throw new Problem(file + ": " + e.getMessage());
        }
    }
}
