package dev.weft.app.campaign;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.weft.launcher.campaign.CampaignFile;
import dev.weft.launcher.campaign.CampaignReportFile;
import dev.weft.launcher.campaign.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A {@code weft campaign} output folder as the results view shows it (docs/campaigns.md): the campaign from
 * {@code report.json} (read as {@link CampaignReportFile}, the type weft campaign writes it with), the tallies of
 * every cell, and one row per run worth looking at — every VIOLATION, DISCARD and ERROR run and every kept recording —
 * with its violation class, what its checker said first (from the run's {@link RunResult}) and its recording when one
 * was kept. Rows are in plan order (cells as the report lists them,
 * seeds ascending), so the same folder always shows the same table.
 */
public record CampaignResults(Path folder, String target, String net, int nodes, String checker, long seedStart,
        long seedCount, boolean complete, long done, long planned, List<Cell> cells, List<Hit> hits, int classes) {

    /** A matrix cell's tallies. */
    public record Cell(String name, long planned, long done, long ok, long violation, long discard, long error) {
        /** Violations per run done, 0 to 1 (0 when nothing is done). */
        public double violationRate() {
            return done == 0 ? 0 : (double) violation / done;
        }
    }

    /**
     * One run: its cell and seed, verdict, violation class (empty unless VIOLATION), the checker's first line, and
     * the kept recording (null if none).
     */
    public record Hit(String cell, long seed, String verdict, String violationClass, String identity, Path recording,
            int cellOrder) {

        /** The invariant the checker named ("AtLeastOneRing" of "AtLeastOneRing : no ring member"), or "". */
        public String invariant() {
            int colon = violationClass.indexOf(" : ");
            return (colon < 0 ? violationClass : violationClass.substring(0, colon)).strip();
        }
    }

    /** A folder that is not a readable campaign: the message says which file and what is wrong. */
    public static final class NotACampaign extends Exception {
        private static final long serialVersionUID = 1L;

        NotACampaign(String message) {
            super(message);
        }
    }

    /** Reads the folder (file I/O: call it off the UI thread). */
    public static CampaignResults read(Path folder) throws NotACampaign {
        Path report = folder.resolve(CampaignReportFile.NAME);
        if (!Files.isRegularFile(report)) {
            throw new NotACampaign(folder + ": no report.json — not a weft campaign output folder, or its campaign is"
                    + " still running (the report is written when it ends or is stopped)");
        }
        CampaignReportFile file;
        try {
            file = CampaignReportFile.read(folder);
        } catch (JsonParseException e) {
            throw new NotACampaign(report + where(e) + ": not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (JsonProcessingException e) {
            throw new NotACampaign(report + where(e) + ": not a campaign report (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new NotACampaign(report + ": " + e.getMessage());
        }
        try {
            return of(folder, file);
        } catch (IllegalArgumentException e) {
            throw new NotACampaign(report + ": " + e.getMessage());
        }
    }

    private static String where(JsonProcessingException e) {
        return e.getLocation() == null ? "" : ": line " + e.getLocation().getLineNr();
    }

    private static CampaignResults of(Path folder, CampaignReportFile file) {
        CampaignFile campaign = required(file.campaign(), "campaign");
        String checker = campaign.checker() != null ? campaign.checker()
                : campaign.checkerCommand() != null ? String.join(" ", campaign.checkerCommand()) : "?";
        List<Cell> cells = new ArrayList<>();
        List<Hit> hits = new ArrayList<>();
        Map<String, String> classOf = new HashMap<>();
        for (CampaignReportFile.Violation v : file.violations()) {
            String cls = required(v.violationClass(), "class");
            for (CampaignReportFile.Hit h : v.hits()) {
                classOf.put(h.cell() + "\u0000" + Long.toUnsignedString(h.seed()), cls);
            }
        }
        int order = 0;
        for (CampaignReportFile.Cell c : file.cells()) {
            String name = required(c.cell(), "cell");
            cells.add(new Cell(name, c.planned(), c.done(), c.ok(), c.violation(), c.discard(), c.error()));
            List<Hit> ofCell = new ArrayList<>();
            addSeeds(folder, name, c.violationSeeds(), "VIOLATION", classOf, ofCell, order);
            addSeeds(folder, name, c.discardSeeds(), "DISCARD", classOf, ofCell, order);
            addSeeds(folder, name, c.errorSeeds(), "ERROR", classOf, ofCell, order);
            // the broker's deadlock verdict (weft run exit 4; absent from older reports, read as none)
            addSeeds(folder, name, c.deadlockSeeds(), "DEADLOCK", classOf, ofCell, order);
            addKeptPasses(folder, name, ofCell, order);
            ofCell.sort(Comparator.comparing((Hit h) -> h.seed(), Long::compareUnsigned));
            hits.addAll(ofCell);
            order++;
        }
        return new CampaignResults(folder, String.join(" ", campaign.target()), campaign.net(), campaign.nodes(),
                checker, campaign.seedStart(), campaign.seedCount(), file.complete(), file.done(), file.planned(),
                List.copyOf(cells), List.copyOf(hits), file.violations().size());
    }

    private static void addSeeds(Path folder, String cell, List<Long> seeds, String verdict, Map<String, String> classOf,
            List<Hit> out, int order) {
        for (long seed : seeds) {
            String stem = "s" + Long.toUnsignedString(seed);
            Path dir = folder.resolve("runs").resolve(cell);
            Path log = dir.resolve(stem + ".weftlog");
            out.add(new Hit(cell, seed, verdict, classOf.getOrDefault(cell + "\u0000" + Long.toUnsignedString(seed), ""),
                    identity(dir.resolve(stem + RunResult.SUFFIX)), Files.isRegularFile(log) ? log : null, order));
        }
    }

    /** Passing runs kept by {@code keep_pass_permille}: a recording beside an OK result. */
    private static void addKeptPasses(Path folder, String cell, List<Hit> out, int order) {
        Path dir = folder.resolve("runs").resolve(cell);
        if (!Files.isDirectory(dir)) return;
        List<Path> logs;
        try (Stream<Path> s = Files.list(dir)) {
            logs = s.filter(p -> p.getFileName().toString().matches("s[0-9]+\\.weftlog")).sorted().toList();
        } catch (IOException e) {
            return;
        }
        for (Path log : logs) {
            String name = log.getFileName().toString();
            long seed = Long.parseUnsignedLong(name.substring(1, name.length() - ".weftlog".length()));
            if (out.stream().anyMatch(h -> h.seed() == seed)) continue;
            Path result = dir.resolve("s" + Long.toUnsignedString(seed) + RunResult.SUFFIX);
            if (verdict(result).equals("OK")) out.add(new Hit(cell, seed, "OK", "", "kept passing run", log, order));
        }
    }

    /** What a run's checker reported first (its {@link RunResult}), or "" if it has none or it is unreadable. */
    private static String identity(Path result) {
        RunResult r = result(result);
        return r == null ? "" : r.identity();
    }

    private static String verdict(Path result) {
        RunResult r = result(result);
        return r == null ? "" : r.verdict();
    }

    private static RunResult result(Path file) {
        try {
            return RunResult.read(file);
        } catch (IOException e) {
            return null; // a run without a readable result: the report still counts it; the row says nothing more
        }
    }

    private static <T> T required(T value, String field) {
        if (value == null) throw new IllegalArgumentException("missing \"" + field + "\"");
        return value;
    }
}
