package dev.weft.launcher.campaign;

import dev.weft.fuzz.RegressionFile;
import dev.weft.text.ShellWords;
import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * report.json, report.md, violation-rates.svg and regressions/&lt;cell&gt;.json of a campaign folder, computed from
 * the plan and the run results present — nothing else (no times, paths of the folder, job count or shard), so a
 * merged folder and a single-process folder give the same bytes.
 */
final class CampaignReport {
    /** DEADLOCK (the broker's verdict, weft run exit 4) comes last: tables keep their earlier columns in place. */
    static final List<String> BUCKETS = List.of("OK", "VIOLATION", "DISCARD", "ERROR", "DEADLOCK");

    /** One cell's tally. */
    private static final class Cell {
        final String name;
        final Map<String, String> vars;
        long planned;
        final Map<String, List<Long>> seeds = new TreeMap<>();

        Cell(String name, Map<String, String> vars) {
            this.name = name;
            this.vars = vars;
            BUCKETS.forEach(b -> seeds.put(b, new ArrayList<>()));
        }

        long done() {
            return seeds.values().stream().mapToLong(List::size).sum();
        }
    }

    /** One hit (a violating run); {@code confirmation} is read for a windowed campaign's first hits only. */
    private record Hit(PlannedRun run, RunResult result, Confirmation confirmation) {
    }

    private final CampaignConfig config;
    private final RunExecutor executor;
    private final List<Cell> cells = new ArrayList<>();
    /** Dedup class → hits in plan order. */
    private final Map<String, List<Hit>> classes = new TreeMap<>();
    private long planned;
    private long done;

    CampaignReport(CampaignConfig config, List<PlannedRun> plan, Path out) throws IOException {
        this.config = config;
        this.executor = new RunExecutor(config);
        Map<Integer, Cell> byIndex = new TreeMap<>();
        for (PlannedRun r : plan) {
            Cell c = byIndex.computeIfAbsent(r.cellIndex(), i -> new Cell(r.cellName(), r.cell()));
            c.planned++;
            planned++;
            RunResult res = RunResult.read(out.resolve(r.stem() + RunResult.SUFFIX));
            if (res == null) {
                continue;
            }
            done++;
            c.seeds.computeIfAbsent(res.verdict(), b -> new ArrayList<>()).add(r.seed());
            if (res.verdict().equals("VIOLATION")) {
                List<Hit> hits = classes.computeIfAbsent(dedupClass(res.identity()), k -> new ArrayList<>());
                Confirmation confirmation = config.windowed() && hits.isEmpty()
                        ? Confirmation.read(out.resolve(r.stem() + Confirmation.SUFFIX)) : null;
                hits.add(new Hit(r, res, confirmation));
            }
        }
        cells.addAll(byIndex.values());
    }

    /**
     * Violations are the same when their first reported line matches with numbers (ops, terms, ids) masked. Only
     * this class goes into the report: a live run's op numbers vary from one recording of a seed to the next
     * (measured: a second leader's report at op 1584, then 1562), its verdict and class do not.
     */
    static String dedupClass(String identity) {
        return identity.replaceAll("[0-9]+", "#");
    }

    boolean anyViolation() {
        return !classes.isEmpty();
    }

    void write(Path out) throws IOException {
        AtomicFile.write(out.resolve(CampaignReportFile.NAME), json().getBytes(StandardCharsets.UTF_8));
        AtomicFile.write(out.resolve("report.md"), markdown().getBytes(StandardCharsets.UTF_8));
        AtomicFile.write(out.resolve("violation-rates.svg"), svg().getBytes(StandardCharsets.UTF_8));
        Path reg = out.resolve("regressions");
        Files.createDirectories(reg);
        for (Cell c : cells) {
            // the regression file format of weft fuzz, whose reader owns it (RegressionFile)
            AtomicFile.write(reg.resolve(c.name + ".json"),
                    RegressionFile.oneLine(c.seeds.get("VIOLATION")).getBytes(StandardCharsets.UTF_8));
        }
    }

    // ------------------------------------------------------------------ report.json (CampaignReportFile)

    CampaignReportFile reportFile() {
        List<CampaignReportFile.Cell> tallies = new ArrayList<>();
        for (Cell c : cells) {
            tallies.add(new CampaignReportFile.Cell(c.seeds.get("DEADLOCK").size(), c.seeds.get("DISCARD").size(),
                    c.seeds.get("ERROR").size(), c.seeds.get("OK").size(), c.seeds.get("VIOLATION").size(), c.name,
                    c.seeds.get("DEADLOCK"), c.seeds.get("DISCARD"), c.done(), c.seeds.get("ERROR"), c.planned,
                    c.seeds.get("VIOLATION")));
        }
        List<CampaignReportFile.Violation> violations = new ArrayList<>();
        for (Map.Entry<String, List<Hit>> e : classes.entrySet()) {
            Hit first = e.getValue().get(0);
            PlannedRun run = first.run();
            // a windowed run's report is stable (op numbers included), and its live re-run is confirmed or not
            CampaignReportFile.First firstHit = new CampaignReportFile.First(run.cellName(),
                    config.windowed() ? confirmationText(first) : null,
                    config.windowed() ? first.result().identity() : null,
                    first.result().kept() ? run.stem() + ".weftlog" : null, replayCommand(run), rerunCommand(run),
                    run.seed());
            List<CampaignReportFile.Hit> hits = new ArrayList<>();
            for (Hit h : e.getValue()) {
                hits.add(new CampaignReportFile.Hit(h.run().cellName(), h.run().seed()));
            }
            violations.add(new CampaignReportFile.Violation(e.getKey(), e.getValue().size(), firstHit, hits));
        }
        return new CampaignReportFile(config.file(), tallies, done == planned, done, planned, violations);
    }

    String json() {
        return reportFile().text();
    }

    /** {@code confirmed: …}, {@code not reproduced: …}, or {@code pending} (the re-run has not happened yet). */
    private static String confirmationText(Hit h) {
        return h.confirmation() == null ? "pending (rerun the campaign with the same --out to re-run it live)"
                : h.confirmation().text();
    }

    private static String seeds(List<Long> s) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < s.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(Long.toUnsignedString(s.get(i)));
        }
        return sb.append(']').toString();
    }

    /** Replays and re-judges the kept recording (paths relative to the campaign folder). */
    String replayCommand(PlannedRun r) {
        String log = r.stem() + ".weftlog";
        List<String> check = executor.checkArgs(log);
        return "weft replay " + ShellWords.quote(log) + " && " + (config.checkerCommand() != null ? "" : "weft ")
                + ShellWords.join(check);
    }

    /** Records the run again from scratch: the cell's and the config's variables, then the same weft run. */
    String rerunCommand(PlannedRun r) {
        StringBuilder sb = new StringBuilder();
        Map<String, String> env = new TreeMap<>(config.env());
        env.putAll(r.cell());
        env.forEach((k, v) -> sb.append(k).append('=').append(ShellWords.quote(v)).append(' '));
        return sb.append("weft ").append(ShellWords.join(executor.runArgs(r, "rerun-s" + Long.toUnsignedString(r.seed())
                + ".weftlog"))).toString();
    }

    // ------------------------------------------------------------------ report.md

    String markdown() {
        StringBuilder sb = new StringBuilder("# Campaign report\n\n");
        sb.append(config.scenario() != null ? "Scenario `" + config.scenario() : "Target `" + ShellWords.join(config.target()))
                .append("` on ").append(config.nodes())
                .append(" nodes, net `").append(config.net()).append("`, checker `")
                .append(config.checker() != null ? config.checker() : ShellWords.join(config.checkerCommand()))
                .append("`; seeds ").append(Long.toUnsignedString(config.seedStart())).append(" to ")
                .append(Long.toUnsignedString(config.seedStart() + config.seedCount() - 1))
                .append(config.windowed() ? "; windowed runs (`--window " + config.windowNs() + "`)" : "").append(".\n\n");
        sb.append(done == planned ? "All " + planned + " runs are done.\n\n"
                : "**Partial:** " + done + " of " + planned + " runs done (rerun with the same --out to resume).\n\n");
        sb.append("![violation rate per cell](violation-rates.svg)\n\n");
        sb.append("| cell | runs | OK | VIOLATION | DISCARD | ERROR | DEADLOCK | violation rate |\n"
                + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Cell c : cells) {
            sb.append("| ").append(c.name).append(" | ").append(c.done());
            for (String b : BUCKETS) {
                sb.append(" | ").append(c.seeds.get(b).size());
            }
            sb.append(" | ").append(percent(c.seeds.get("VIOLATION").size(), c.done())).append(" |\n");
        }
        for (Cell c : cells) {
            sb.append("\n## ").append(c.name).append("\n\n");
            sb.append("| verdict | seeds |\n|---|---|\n");
            for (String b : BUCKETS) {
                List<Long> s = c.seeds.get(b);
                sb.append("| ").append(b).append(" | ").append(b.equals("OK") ? s.size() + " runs" : s.isEmpty() ? "none"
                        : seeds(s).replace("[", "").replace("]", "")).append(" |\n");
            }
            sb.append("\nRegression seeds: `regressions/").append(c.name).append(".json`.\n");
        }
        sb.append("\n## Distinct violations\n");
        if (classes.isEmpty()) {
            sb.append("\nNone.\n");
        }
        for (Map.Entry<String, List<Hit>> e : classes.entrySet()) {
            Hit first = e.getValue().get(0);
            sb.append("\n### ").append(e.getKey().replace("|", "\\|")).append("\n\n")
                    .append(e.getValue().size()).append(" hit(s); first: ").append(first.run().cellName())
                    .append(" seed ").append(Long.toUnsignedString(first.run().seed())).append("\n\n");
            if (config.windowed()) {
                sb.append("First report: `").append(first.result().identity().replace("`", "'"))
                        .append("`.\n\nLive re-run: ").append(confirmationText(first)).append(".\n\n");
            }
            sb.append("```sh\n");
            if (first.result().kept()) {
                sb.append("# replay and re-check the kept recording\n").append(replayCommand(first.run())).append('\n');
            }
            sb.append("# record it again\n").append(rerunCommand(first.run())).append("\n```\n\nAll hits: ");
            for (int i = 0; i < e.getValue().size(); i++) {
                Hit h = e.getValue().get(i);
                sb.append(i == 0 ? "" : ", ").append(h.run().cellName()).append(" s")
                        .append(Long.toUnsignedString(h.run().seed()));
            }
            sb.append(".\n");
        }
        return sb.toString();
    }

    private static String percent(long n, long of) {
        return of == 0 ? "–" : String.format(Locale.ROOT, "%.1f %%", 100.0 * n / of);
    }

    // ------------------------------------------------------------------ the bar chart

    String svg() {
        int barW = 60;
        int gap = 20;
        int h = 200;
        int left = 50;
        int width = left + cells.size() * (barW + gap) + gap;
        StringBuilder sb = new StringBuilder();
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(h + 80).append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
        sb.append("<text x=\"").append(left).append("\" y=\"16\">violation rate per cell</text>\n");
        sb.append("<line x1=\"").append(left).append("\" y1=\"30\" x2=\"").append(left).append("\" y2=\"").append(30 + h)
                .append("\" stroke=\"black\"/>\n");
        for (int pct = 0; pct <= 100; pct += 25) {
            int y = 30 + h - pct * h / 100;
            sb.append("<text x=\"").append(left - 6).append("\" y=\"").append(y + 4).append("\" text-anchor=\"end\">")
                    .append(pct).append("%</text>\n");
        }
        for (int i = 0; i < cells.size(); i++) {
            Cell c = cells.get(i);
            long v = c.seeds.get("VIOLATION").size();
            int bar = c.done() == 0 ? 0 : (int) (v * h / c.done());
            int x = left + gap + i * (barW + gap);
            sb.append("<rect x=\"").append(x).append("\" y=\"").append(30 + h - bar).append("\" width=\"").append(barW)
                    .append("\" height=\"").append(bar).append("\" fill=\"#c0392b\"/>\n");
            sb.append("<text x=\"").append(x + barW / 2).append("\" y=\"").append(30 + h - bar - 4)
                    .append("\" text-anchor=\"middle\">").append(percent(v, c.done())).append("</text>\n");
            sb.append("<text x=\"").append(x + barW / 2).append("\" y=\"").append(30 + h + 16)
                    .append("\" text-anchor=\"middle\">").append(xml(c.name)).append("</text>\n");
            sb.append("<text x=\"").append(x + barW / 2).append("\" y=\"").append(30 + h + 32)
                    .append("\" text-anchor=\"middle\">").append(v).append('/').append(c.done()).append("</text>\n");
        }
        return sb.append("</svg>\n").toString();
    }

    private static String xml(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
