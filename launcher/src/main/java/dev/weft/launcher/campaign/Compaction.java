package dev.weft.launcher.campaign;

import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code weft campaign compact DIR [--keep N]}: for an archived campaign, keeps the recordings of the first N hits
 * (in plan order) of each violation class and replaces the others by a line in {@code compacted.txt} — cell, seed,
 * the command that records the run again, and the SHA-256 of the recording that was dropped. The report does not
 * change (it cites only each class's first hit, which is kept).
 */
final class Compaction {
    static final String FILE = "compacted.txt";

    private Compaction() {
    }

    /** Returns how many recordings were dropped. */
    static int compact(Path dir, int keep) throws IOException, CampaignConfig.ConfigException {
        String canonical = Files.readString(dir.resolve(CampaignCommand.CONFIG_FILE), StandardCharsets.UTF_8);
        CampaignConfig config = CampaignConfig.parseCanonical(canonical.getBytes(StandardCharsets.UTF_8));
        List<PlannedRun> plan = PlannedRun.plan(config, config.seedStart(), config.seedCount());
        CampaignReport commands = new CampaignReport(config, List.of(), dir);
        Map<String, Integer> seen = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        Path listed = dir.resolve(FILE);
        if (Files.isRegularFile(listed)) {
            lines.addAll(Files.readAllLines(listed, StandardCharsets.UTF_8));
        }
        int dropped = 0;
        for (PlannedRun r : plan) {
            Path resultFile = dir.resolve(r.stem() + RunResult.SUFFIX);
            RunResult res = RunResult.read(resultFile);
            if (res == null || !res.verdict().equals("VIOLATION")) {
                continue;
            }
            int n = seen.merge(CampaignReport.dedupClass(res.identity()), 1, Integer::sum);
            Path log = dir.resolve(r.stem() + ".weftlog");
            if (n <= keep || !res.kept() || !Files.isRegularFile(log)) {
                continue;
            }
            lines.add(r.cellName() + "\t" + Long.toUnsignedString(r.seed()) + "\t" + commands.rerunCommand(r)
                    + "\tsha256:" + Confirmation.sha256(log));
            // the list first, then the result, then the recording: an interruption never loses a run's line
            AtomicFile.write(listed, (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
            new RunResult(res.verdict(), res.identity(), false).write(resultFile);
            Files.delete(log);
            Files.deleteIfExists(dev.weft.history.HistoryFile.beside(log));
            dropped++;
        }
        return dropped;
    }
}
