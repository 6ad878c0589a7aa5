package dev.weft.launcher.shrink;

import dev.weft.io.AtomicFile;
import dev.weft.io.BoundedFiles;
import dev.weft.launcher.campaign.CampaignCommand;
import dev.weft.launcher.campaign.CampaignConfig;
import dev.weft.launcher.campaign.FolderArgs;
import dev.weft.launcher.campaign.PlannedRun;
import dev.weft.launcher.campaign.RunResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code weft campaign shrink DIR}: shrinks every distinct finding of a finished campaign folder — the first hit in
 * plan order of each bucket (verdict and class of first report) — starting from its kept recording's plan, into
 * {@code DIR/shrunk/<cell>/s<seed>/} ({@link HitShrinker}), and writes {@code DIR/shrunk/report.md}. A hit whose
 * report says it is shrunk is skipped, so a stopped run resumes with the next hit.
 */
public final class CampaignShrinkCommand {
    public static final String USAGE = "Usage: weft campaign shrink DIR [--jobs J]\n\n"
            + "Shrinks every distinct hit of the campaign folder DIR (the first hit of each violation class, and of a\n"
            + "deadlock verdict) to a 1-minimal fault plan, as weft shrink does, starting from the hit's kept recording\n"
            + "(re-recorded from its seed when it was not kept). Each hit's plan.json, minimal.weftlog and report.txt\n"
            + "go to DIR/shrunk/<cell>/s<seed>/; DIR/shrunk/report.md shows each hit's minimal plan beside its seed\n"
            + "and the weft run --plan command that re-runs it. A hit already shrunk is skipped: after Ctrl-C, the\n"
            + "same command goes on with the hits left.\n\n"
            + "  --jobs J   live runs at a time (default: the machine's cores)\n\n"
            + "Exit status: 0 every hit shrunk (or none to shrink), 1 error (also: a hit that cannot be shrunk,\n"
            + "such as a TCP recording that does not replay), 4 a hit no longer fails the same way (both reported in report.md),\n"
            + "130 stopped by Ctrl-C (resumable).\n";

    static final String FOLDER = "shrunk";

    private CampaignShrinkCommand() {
    }

    /** The picocli model of {@code weft campaign shrink}. */
    public static CommandSpec spec() {
        return FolderArgs.spec("shrink", "--jobs", "J");
    }

    /** {@code args} are the words after {@code campaign shrink}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        FolderArgs parsed;
        try {
            parsed = FolderArgs.parse(spec(), "--jobs", args, "no campaign folder given");
        } catch (IllegalArgumentException e) {
            err.println("weft campaign shrink: " + e.getMessage());
            err.print(USAGE);
            return 1;
        }
        if (parsed.help()) {
            out.print(USAGE);
            return 0;
        }
        Path dir = parsed.dir();
        int jobs = parsed.count() == null ? Runtime.getRuntime().availableProcessors() : parsed.count();
        Path campaignDir = dir;
        CampaignConfig config;
        Path configFile = dir.resolve(CampaignCommand.CONFIG_FILE);
        try {
            config = CampaignConfig.parseCanonical(BoundedFiles.read(configFile, CampaignCommand.MAX_CONFIG_BYTES));
        } catch (NoSuchFileException e) {
            err.println("weft campaign shrink: " + dir + " is not a campaign folder (no " + CampaignCommand.CONFIG_FILE
                    + ")");
            return 1;
        } catch (IOException e) {
            err.println("weft campaign shrink: " + configFile + ": " + dev.weft.text.OsErrorText.of(e));
            return 1;
        } catch (CampaignConfig.ConfigException e) {
            err.println("weft campaign shrink: " + configFile + ": " + e.getMessage());
            return 1;
        }
        int j = jobs;
        AtomicReference<HitShrinker> current = new AtomicReference<>();
        AtomicBoolean stopping = new AtomicBoolean();
        return new Interruptible(() -> {
            stopping.set(true);
            HitShrinker s = current.get();
            if (s != null) {
                s.stop();
            }
        }).call(() -> shrinkAll(campaignDir, config, j, current, stopping, out, err),
                message -> {
                    err.println("weft campaign shrink: " + message);
                    return 1;
                });
    }

    private static int shrinkAll(Path dir, CampaignConfig config, int jobs, AtomicReference<HitShrinker> current,
            AtomicBoolean stopping, PrintStream out, PrintStream err) throws IOException, ShrinkException {
        List<Hit> hits = distinctHits(dir, config);
        err.println("weft campaign shrink: " + hits.size() + " distinct hit(s) in " + dir + "; " + jobs
                + " run(s) at a time");
        boolean notReproduced = false;
        boolean unshrinkable = false;
        for (Hit h : hits) {
            Path hitDir = dir.resolve(h.folder());
            String before = ShrinkSummary.value(hitDir.resolve(ShrinkOutputs.REPORT), "result");
            if (before != null && before.equals("shrunk")) {
                err.println("weft campaign shrink: " + h.name() + ": already shrunk (" + ShrinkSummary.planLine(
                        hitDir.resolve(ShrinkOutputs.REPORT)) + ")");
                continue;
            }
            if (stopping.get()) {
                break;
            }
            err.println("weft campaign shrink: " + h.name() + ": " + h.result().bucket());
            Path kept = dir.resolve(h.run().stem() + ".weftlog");
            ShrinkReport.Commands commands = ShrinkReport.Commands.of(config, h.run(),
                    h.folder() + "/" + ShrinkOutputs.PLAN, h.folder() + "/" + ShrinkOutputs.RERUN);
            HitShrinker s = new HitShrinker(config, dir.resolve(CampaignCommand.CONFIG_FILE).toString(), h.run(),
                    hitDir, commands, jobs, err, System.console() != null);
            current.set(s);
            if (stopping.get()) {
                break;
            }
            ShrinkOutcome o;
            try {
                o = Files.isRegularFile(kept) ? s.shrink(kept, h.result()) : s.shrink(null, null);
            } catch (ShrinkException e) {
                // this hit cannot be shrunk (e.g. a TCP recording that does not replay): say so in its report, go on
                AtomicFile.write(hitDir.resolve(ShrinkOutputs.REPORT), ("weft shrink report\nresult: cannot be shrunk: "
                        + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
                err.println("weft campaign shrink: " + h.name() + ": cannot be shrunk: " + e.getMessage());
                current.set(null);
                unshrinkable = true;
                continue;
            }
            current.set(null);
            writeReport(dir, hits);
            if (o == ShrinkOutcome.INTERRUPTED) {
                err.println("weft campaign shrink: stopped; the same command goes on with the hits not yet shrunk");
                return o.exitCode;
            }
            notReproduced |= o != ShrinkOutcome.SHRUNK;
            err.println("weft campaign shrink: " + h.name() + ": " + (o == ShrinkOutcome.SHRUNK
                    ? ShrinkSummary.planLine(hitDir.resolve(ShrinkOutputs.REPORT))
                    : ShrinkSummary.result(hitDir.resolve(ShrinkOutputs.REPORT))));
        }
        writeReport(dir, hits);
        out.println("weft campaign shrink: " + hits.size() + " hit(s): " + dir.resolve(FOLDER).resolve("report.md"));
        return stopping.get() ? 130 : unshrinkable ? 1 : notReproduced ? ShrinkOutcome.DOES_NOT_REPRODUCE.exitCode : 0;
    }

    /** One distinct finding: the first run in plan order with its bucket. */
    record Hit(PlannedRun run, RunResult result) {
        String folder() {
            return FOLDER + "/" + run.cellName() + "/s" + Long.toUnsignedString(run.seed());
        }

        String name() {
            return run.cellName() + " seed " + Long.toUnsignedString(run.seed());
        }
    }

    /** Per bucket, the first hit in plan order (cells in order, seeds ascending): the hit the report cites. */
    static List<Hit> distinctHits(Path dir, CampaignConfig config) throws IOException {
        Map<String, Hit> first = new LinkedHashMap<>();
        for (PlannedRun r : PlannedRun.plan(config, config.seedStart(), config.seedCount())) {
            RunResult res = RunResult.read(dir.resolve(r.stem() + RunResult.SUFFIX));
            if (res != null && res.isFinding()) {
                first.putIfAbsent(res.bucket(), new Hit(r, res));
            }
        }
        return new ArrayList<>(first.values());
    }

    /** {@code DIR/shrunk/report.md}: per hit its result, minimal plan and commands; no wall-clock figures. */
    static void writeReport(Path dir, List<Hit> hits) throws IOException {
        StringBuilder sb = new StringBuilder("# Shrunk hits\n\n");
        sb.append("Each distinct finding of this campaign (the first hit of each class) shrunk by `weft campaign shrink`"
                + " to a 1-minimal fault plan: removing any one of its deviations loses the finding (docs/shrinking.md)."
                + " Commands run from the campaign folder; each hit's `report.txt` has its runs and time.\n");
        if (hits.isEmpty()) {
            sb.append("\nNo hits: nothing to shrink.\n");
        }
        for (Hit h : hits) {
            Path report = dir.resolve(h.folder()).resolve(ShrinkOutputs.REPORT);
            sb.append("\n## ").append(h.result().bucket()).append("\n\n").append(h.name()).append(": ");
            String result = ShrinkSummary.value(report, "result");
            if (result == null) {
                sb.append("not shrunk yet (run `weft campaign shrink` on this folder again)\n");
                continue;
            }
            if (!result.equals("shrunk")) {
                sb.append(result).append("\n");
                if (!result.startsWith("interrupted")) {
                    continue;
                }
            } else {
                sb.append("**").append(ShrinkSummary.planLine(report)).append("**, 1-minimal\n");
            }
            Path plan = dir.resolve(h.folder()).resolve(ShrinkOutputs.PLAN);
            if (Files.isRegularFile(plan)) {
                sb.append("\n`").append(h.folder()).append("/").append(ShrinkOutputs.PLAN).append("`:\n\n```json\n")
                        .append(Files.readString(plan, StandardCharsets.UTF_8)).append("```\n");
            }
            sb.append("\n```bash\n").append(ShrinkSummary.value(report, "rerun")).append("\n")
                    .append(ShrinkSummary.value(report, "check")).append("\n```\n");
        }
        Path out = dir.resolve(FOLDER);
        Files.createDirectories(out);
        AtomicFile.write(out.resolve("report.md"), sb.toString().getBytes(StandardCharsets.UTF_8));
    }
}
