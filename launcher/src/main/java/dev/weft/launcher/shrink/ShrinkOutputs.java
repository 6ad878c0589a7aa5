package dev.weft.launcher.shrink;

import dev.weft.history.HistoryFile;
import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The files a shrink leaves in its folder, each appearing under its name only complete (written beside, then
 * renamed), in an order that keeps them consistent at every moment: the recording's plan sidecar before the
 * recording, the recording before {@code plan.json}, and {@code report.txt} last (it is what says the shrink is done).
 */
final class ShrinkOutputs {
    static final String PLAN = "plan.json";
    static final String MINIMAL = "minimal.weftlog";
    static final String REPORT = "report.txt";
    /** The failing run as first recorded (weft shrink only; a campaign's hit keeps its own recording). */
    static final String ORIGINAL = "original.weftlog";
    /** The plan the failing run followed, every deviation of it. */
    static final String ORIGINAL_PLAN = "original-plan.json";
    /** Where the report's rerun command records (so a later shrink into the folder may replace it). */
    static final String RERUN = "rerun.weftlog";
    /** Candidate runs live here while the shrink works; removed at its end. */
    static final String TMP = ".shrink-tmp";

    private ShrinkOutputs() {
    }

    /** Writes the best run's plan and recording (the report is written by the caller, last). */
    static void write(Path dir, LiveOracle.Evidence best) throws IOException {
        Path minimal = dir.resolve(MINIMAL);
        // the plan beside the recording first: a recording made with a plan cannot be replayed without it
        AtomicFile.write(Path.of(minimal + ".plan.json"), best.plan());
        Path history = HistoryFile.beside(best.recording());
        if (Files.isRegularFile(history)) {
            Files.move(history, HistoryFile.beside(minimal), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        }
        // same file system (the candidates run in a folder inside dir): a rename, never a partial file
        Files.move(best.recording(), minimal, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.deleteIfExists(Path.of(best.recording() + ".plan.json"));
        AtomicFile.write(dir.resolve(PLAN), best.plan());
    }
}
