package dev.weft.app.campaign;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * {@code report.json}, the tallies of every cell, and one row per run worth looking at — every VIOLATION, DISCARD
 * and ERROR run and every kept recording — with its violation class, what its checker said first (from the run's
 * {@code .result}) and its recording when one was kept. Rows are in plan order (cells as the report lists them,
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

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Reads the folder (file I/O: call it off the UI thread). */
    public static CampaignResults read(Path folder) throws NotACampaign {
        Path report = folder.resolve("report.json");
        if (!Files.isRegularFile(report)) {
            throw new NotACampaign(folder + ": no report.json — not a weft campaign output folder, or its campaign is"
                    + " still running (the report is written when it ends or is stopped)");
        }
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(report, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : ": line " + e.getLocation().getLineNr();
            throw new NotACampaign(report + where + ": not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new NotACampaign(report + ": " + e.getMessage());
        }
        try {
            return parse(folder, root);
        } catch (IllegalArgumentException e) {
            throw new NotACampaign(report + ": " + e.getMessage());
        }
    }

    private static CampaignResults parse(Path folder, JsonNode root) {
        JsonNode campaign = required(root, "campaign");
        List<String> target = new ArrayList<>();
        for (JsonNode t : required(campaign, "target")) target.add(t.asText());
        String checker = campaign.has("checker") ? campaign.get("checker").asText()
                : campaign.has("checker_command") ? String.join(" ", texts(campaign.get("checker_command"))) : "?";
        List<Cell> cells = new ArrayList<>();
        List<Hit> hits = new ArrayList<>();
        Map<String, String> classOf = new HashMap<>();
        JsonNode violations = root.path("violations");
        for (JsonNode v : violations) {
            String cls = required(v, "class").asText();
            for (JsonNode h : v.path("hits")) {
                classOf.put(h.path("cell").asText() + "\u0000" + h.path("seed").asText(), cls);
            }
        }
        int order = 0;
        for (JsonNode c : required(root, "cells")) {
            String name = required(c, "cell").asText();
            cells.add(new Cell(name, c.path("planned").asLong(), c.path("done").asLong(), c.path("OK").asLong(),
                    c.path("VIOLATION").asLong(), c.path("DISCARD").asLong(), c.path("ERROR").asLong()));
            List<Hit> ofCell = new ArrayList<>();
            addSeeds(folder, name, c.path("violation_seeds"), "VIOLATION", classOf, ofCell, order);
            addSeeds(folder, name, c.path("discard_seeds"), "DISCARD", classOf, ofCell, order);
            addSeeds(folder, name, c.path("error_seeds"), "ERROR", classOf, ofCell, order);
            // the broker's deadlock verdict (weft run exit 4; absent from older reports)
            addSeeds(folder, name, c.path("deadlock_seeds"), "DEADLOCK", classOf, ofCell, order);
            addKeptPasses(folder, name, ofCell, order);
            ofCell.sort(Comparator.comparing((Hit h) -> h.seed(), Long::compareUnsigned));
            hits.addAll(ofCell);
            order++;
        }
        return new CampaignResults(folder, String.join(" ", target), campaign.path("net").asText(),
                campaign.path("nodes").asInt(), checker, campaign.path("seed_start").asLong(),
                campaign.path("seed_count").asLong(), root.path("complete").asBoolean(), root.path("done").asLong(),
                root.path("planned").asLong(), List.copyOf(cells), List.copyOf(hits), violations.size());
    }

    private static void addSeeds(Path folder, String cell, JsonNode seeds, String verdict, Map<String, String> classOf,
            List<Hit> out, int order) {
        for (JsonNode s : seeds) {
            long seed = Long.parseUnsignedLong(s.asText());
            String stem = "s" + Long.toUnsignedString(seed);
            Path dir = folder.resolve("runs").resolve(cell);
            Path log = dir.resolve(stem + ".weftlog");
            out.add(new Hit(cell, seed, verdict, classOf.getOrDefault(cell + "\u0000" + s.asText(), ""),
                    identity(dir.resolve(stem + ".result")), Files.isRegularFile(log) ? log : null, order));
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
            Path result = dir.resolve("s" + Long.toUnsignedString(seed) + ".result");
            if (verdict(result).equals("OK")) out.add(new Hit(cell, seed, "OK", "", "kept passing run", log, order));
        }
    }

    /** The identity line of a run's .result (what its checker reported first), or "" if unreadable. */
    private static String identity(Path result) {
        return field(result, "identity ");
    }

    private static String verdict(Path result) {
        return field(result, "verdict ");
    }

    private static String field(Path result, String prefix) {
        try {
            for (String l : Files.readAllLines(result, StandardCharsets.UTF_8)) {
                if (l.startsWith(prefix)) return l.substring(prefix.length());
            }
        } catch (IOException e) {
            // a run without a result file: the report still counts it; the row says nothing more
        }
        return "";
    }

    private static JsonNode required(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) throw new IllegalArgumentException("missing \"" + field + "\"");
        return v;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
