package dev.weft.launcher.shrink;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.cli.CommandArgs.BadValue;
import dev.weft.io.BoundedFiles;
import dev.weft.launcher.campaign.CampaignCommand;
import dev.weft.launcher.campaign.CampaignConfig;
import dev.weft.launcher.campaign.PlannedRun;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft shrink --config CAMPAIGN.json --seed N [--cell K=V …] [--jobs J] --out DIR}: records the failing run
 * of one seed with the campaign's runner and checker and shrinks its fault plan to a 1-minimal one
 * ({@link HitShrinker}; docs/shrinking.md).
 */
public final class ShrinkCommand {
    public static final String USAGE = "Usage: weft shrink --config FILE --seed N [--cell K=V ...] [--jobs J] --out DIR\n\n"
            + "Records seed N of the campaign config's target (as weft campaign runs it) and, if its checker finds a\n"
            + "violation (or the broker a deadlock), takes the fault plan the run followed and shrinks it by delta\n"
            + "debugging with live re-runs (weft run --plan): a candidate is kept while its run still shows the same\n"
            + "verdict and class of first report. The result is 1-minimal: removing any one of its deviations loses\n"
            + "the violation (checked at the end by one fresh run per deviation). Windowed configs (window_ns) shrink\n"
            + "reproducibly; plain runs of one plan may differ from run to run. Walk-through: docs/shrinking.md.\n\n"
            + "Writes into DIR (each file complete or absent): plan.json (the minimal plan), minimal.weftlog (its\n"
            + "recording, plan beside as minimal.weftlog.plan.json), report.txt (result:, invariant:, plan: D\n"
            + "deviation(s) of N, runs, time, the rerun command), original.weftlog and original-plan.json.\n"
            + "Progress on stderr, one line per run: shrink: run R, D deviation(s) of N. Ctrl-C writes the best\n"
            + "plan so far and says so.\n\n"
            + "  --config FILE   a weft campaign config (docs/campaigns.md)\n"
            + "  --seed N        the failing seed\n"
            + "  --cell K=V      a value of a matrix variable; needed for every variable with several values\n"
            + "  --jobs J        live runs at a time (default: the machine's cores); the result does not depend on it\n"
            + "  --out DIR       the output folder: new, empty, or a previous shrink's (its outputs are replaced)\n\n"
            + "Exit status: 0 shrunk, 1 error, 3 the seed does not fail, 4 the failure does not reproduce under\n"
            + "its own plan, 130 stopped by Ctrl-C (best plan so far written).\n";

    private ShrinkCommand() {
    }

    /** The picocli model of {@code weft shrink}; each value is checked when its option is met. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("shrink")
                .addOption(CommandArgs.valueOption("FILE", "--config"))
                .addOption(CommandArgs.convertedOption("N", Long.class, ShrinkCommand::seed, "--seed"))
                .addOption(OptionSpec.builder("--cell").paramLabel("K=V").arity("1").type(List.class)
                        .auxiliaryTypes(String.class).converters(ShrinkCommand::cell).build())
                .addOption(CommandArgs.convertedOption("J", Integer.class, v -> CommandArgs.positiveCount(v, "--jobs"), "--jobs"))
                .addOption(CommandArgs.valueOption("DIR", "--out"))
                .addOption(CommandArgs.helpOption());
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), args);
        } catch (ArgsProblem p) {
            return usageError(err, p.asUnknownArgument());
        }
        if (parsed.isUsageHelpRequested()) {
            out.print(USAGE);
            return 0;
        }
        String configName = parsed.matchedOptionValue("--config", null);
        String outName = parsed.matchedOptionValue("--out", null);
        Path configFile = configName == null ? null : Path.of(configName);
        Path outDir = outName == null ? null : Path.of(outName);
        Long seed = parsed.matchedOptionValue("--seed", null);
        int jobs = parsed.matchedOptionValue("--jobs", Runtime.getRuntime().availableProcessors());
        Map<String, String> cell = new TreeMap<>();
        for (String kv : parsed.matchedOptionValue("--cell", List.<String>of())) {
            int eq = kv.indexOf('=');
            if (cell.put(kv.substring(0, eq), kv.substring(eq + 1)) != null) {
                return usageError(err, cellError(kv));
            }
        }
        if (configFile == null || seed == null || outDir == null) {
            return usageError(err, "--config FILE, --seed N and --out DIR are required");
        }
        CampaignConfig config;
        try {
            byte[] doc = BoundedFiles.read(configFile, CampaignCommand.MAX_CONFIG_BYTES);
            config = CampaignConfig.parse(doc, configFile.toAbsolutePath().getParent());
            config.checkNet();
        } catch (NoSuchFileException e) {
            err.println("weft shrink: " + configFile + ": no such file");
            return 1;
        } catch (IOException e) {
            err.println("weft shrink: " + configFile + ": " + OsErrorText.of(e));
            return 1;
        } catch (CampaignConfig.ConfigException e) {
            err.println("weft shrink: " + configFile + ": " + e.getMessage());
            return 1;
        }
        PlannedRun run;
        try {
            run = CellChoice.run(config, cell, seed);
        } catch (ShrinkException e) {
            err.println("weft shrink: " + e.getMessage());
            return 1;
        }
        ShrinkReport.Commands commands = ShrinkReport.Commands.of(config, run,
                outDir.resolve(ShrinkOutputs.PLAN).toString(), outDir.resolve(ShrinkOutputs.RERUN).toString());
        HitShrinker shrinker = new HitShrinker(config, configFile.toAbsolutePath().normalize().toString(), run, outDir,
                commands, jobs, err, System.console() != null);
        Path dir = outDir;
        return new Interruptible(shrinker::stop).call(() -> {
            ShrinkOutcome o = shrinker.shrink(null, null);
            say(o, dir, out, err);
            return o.exitCode;
        }, e -> {
            err.println("weft shrink: " + e);
            return 1;
        });
    }

    /** The closing line: where the result is, or why there is none. */
    static void say(ShrinkOutcome o, Path outDir, PrintStream out, PrintStream err) {
        Path report = outDir.resolve(ShrinkOutputs.REPORT);
        switch (o) {
            case SHRUNK -> out.println("weft shrink: " + ShrinkSummary.planLine(report) + ", 1-minimal: "
                    + outDir.resolve(ShrinkOutputs.PLAN) + " (recording " + outDir.resolve(ShrinkOutputs.MINIMAL)
                    + ", report " + report + ")");
            case INTERRUPTED -> err.println(ShrinkSummary.value(report, "plan") == null
                    ? "weft shrink: interrupted before shrinking began: no plan; see " + report
                    : "weft shrink: interrupted; kept the best plan so far, " + ShrinkSummary.planLine(report)
                            + " (not checked 1-minimal): " + outDir.resolve(ShrinkOutputs.PLAN) + ", recording "
                            + outDir.resolve(ShrinkOutputs.MINIMAL));
            case DOES_NOT_FAIL -> err.println("weft shrink: " + ShrinkSummary.result(report));
            case DOES_NOT_REPRODUCE -> err.println("weft shrink: " + ShrinkSummary.result(report));
        }
    }

    private static int usageError(PrintStream err, String why) {
        err.println("weft shrink: " + why);
        err.print(USAGE);
        return 1;
    }

    private static Long seed(String v) {
        try {
            return Long.parseUnsignedLong(v);
        } catch (NumberFormatException e) {
            throw new BadValue("--seed wants a number from 0 to 2^64-1, got \"" + v + "\"");
        }
    }

    /** One {@code --cell K=V} (that each variable comes once is checked after parsing). */
    private static String cell(String kv) {
        if (kv.indexOf('=') <= 0) {
            throw new BadValue(cellError(kv));
        }
        return kv;
    }

    private static String cellError(String kv) {
        return "--cell wants K=V, each variable once, got \"" + kv + "\"";
    }
}
