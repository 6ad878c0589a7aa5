package dev.weft.launcher.campaign;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft campaign}: sweeps seeds × an environment matrix of a live target with real {@code weft run --record}
 * runs, judges each recording, keeps the hits and writes the report (docs/campaigns.md). {@code weft campaign merge}
 * combines shard folders.
 */
public final class CampaignCommand {
    public static final String USAGE = "Usage: weft campaign --config FILE [--seeds S:N] [--jobs J] [--out DIR] [--shard k/N]\n"
            + "                     [--hosts A:PORT,... [--place RANGE@A:PORT,...] --token-file F]\n"
            + "       weft campaign merge OUT DIR...\n"
            + "       weft campaign compact DIR [--keep N]\n"
            + "       weft campaign verify DIR\n"
            + "       weft campaign shrink DIR [--jobs J]\n\n"
            + "Runs the target of the campaign config once per seed and matrix cell with weft run --record, judges every\n"
            + "recording with the config's checker, keeps the recordings of violating runs (and a sample of passes\n"
            + "if keep_pass_permille is set) under DIR/runs/, and writes DIR/report.json, report.md,\n"
            + "violation-rates.svg and regressions/<cell>.json. A rerun with the same --out resumes; Ctrl-C stops\n"
            + "and leaves a valid partial report. With window_ns (windowed runs, byte-identical per seed), the first\n"
            + "hit of each violation class is re-run live and reported confirmed or not reproduced.\n\n"
            + "  --config FILE   the campaign config (JSON; see docs/campaigns.md)\n"
            + "  --seeds S:N     seeds S to S+N-1 (default: the config's seed_start and seed_count)\n"
            + "  --jobs J        runs at a time (default: the machine's cores)\n"
            + "  --out DIR       output folder (default campaign-out)\n"
            + "  --shard k/N     only runs number i with i % N == k (default: from JOB_COMPLETION_INDEX/JOB_COMPLETIONS\n"
            + "                  or SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT, else everything)\n"
            + "  --hosts, --place, --token-file\n"
            + "                  run every node through these weft hostd agents (as weft run's options); the nodes get\n"
            + "                  the config's env and matrix as they would here, and the report is the same\n\n"
            + "merge copies the runs of shard folders into OUT and writes the report a single process would have.\n"
            + "compact keeps the recordings of the first N (default 1) hits of each violation class and replaces\n"
            + "the others by a line (cell, seed, rerun command, sha256) in DIR/compacted.txt.\n"
            + "verify replays every kept recording in DIR and re-runs the checker on it: each must replay identical\n"
            + "and get the verdict and first report its result says (exit 0), else one line per mismatch (exit 1).\n"
            + "shrink shrinks each distinct hit to a 1-minimal fault plan under DIR/shrunk/ (weft campaign shrink -h;\n"
            + "docs/shrinking.md): exit 0 every hit shrunk, 4 a hit no longer reproduces, 1 error, 130 Ctrl-C.\n\n"
            + "Exit status: 0 no violation, 2 violations found, 1 error, 130 stopped by Ctrl-C.\n";

    public static final String CONFIG_FILE = "campaign.json";
    /** A campaign config is a page of JSON; one past this is refused before it is read whole (docs/security.md). */
    public static final int MAX_CONFIG_BYTES = 1 << 20;

    private CampaignCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, System.getenv(), out, err);
    }

    static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        if (args.length > 0 && args[0].equals("merge")) {
            return merge(args, out, err);
        }
        if (args.length > 0 && args[0].equals("compact")) {
            return compact(args, out, err);
        }
        if (args.length > 0 && args[0].equals("verify")) {
            return verify(args, out, err);
        }
        if (args.length > 0 && args[0].equals("shrink")) {
            return dev.weft.launcher.shrink.CampaignShrinkCommand.run(
                    java.util.Arrays.copyOfRange(args, 1, args.length), out, err);
        }
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
        if (!CommandArgs.operands(parsed).isEmpty()) {
            return usageError(err, "unknown argument \"" + CommandArgs.operands(parsed).get(0) + "\"");
        }
        String configName = parsed.matchedOptionValue("--config", null);
        if (configName == null) {
            return usageError(err, "--config FILE is required");
        }
        Path configFile = Path.of(configName);
        Path outDir = Path.of(parsed.matchedOptionValue("--out", "campaign-out"));
        String seeds = parsed.matchedOptionValue("--seeds", null);
        // a run is mostly waiting on its nodes and the broker: one per core keeps the machine busy (runs are
        // independent processes and the report is ordered by seed, so the count changes no result)
        int jobs = parsed.matchedOptionValue("--jobs", Runtime.getRuntime().availableProcessors());
        Shard shard = parsed.matchedOptionValue("--shard", null);
        if (shard == null) {
            try {
                shard = Shard.fromEnvironment(env);
            } catch (IllegalArgumentException e) {
                return usageError(err, e.getMessage());
            }
        }
        List<String> placement = new ArrayList<>();
        for (String option : PLACEMENT) { // passed on to every weft run as they were given
            String value = parsed.matchedOptionValue(option, null);
            if (value != null) {
                placement.addAll(List.of(option, value));
            }
        }
        CampaignConfig config;
        try {
            byte[] doc = dev.weft.io.BoundedFiles.read(configFile, MAX_CONFIG_BYTES);
            Path dir = configFile.toAbsolutePath().getParent();
            config = CampaignConfig.parse(doc, dir);
            config.checkNet();
            if (seeds != null) {
                long[] sn = seedRange(seeds);
                config = config.withSeeds(sn[0], sn[1]);
            }
        } catch (NoSuchFileException e) {
            err.println("weft campaign: " + configFile + ": no such file");
            return 1;
        } catch (IOException e) {
            err.println("weft campaign: " + configFile + ": " + dev.weft.text.OsErrorText.of(e)
                    + (e instanceof dev.weft.io.BoundedFiles.TooLargeException ? "; a campaign config is at most that" : ""));
            return 1;
        } catch (CampaignConfig.ConfigException e) {
            err.println("weft campaign: " + configFile + ": " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            err.println("weft campaign: " + e.getMessage());
            return 1;
        }
        if (config.scenario() != null && !placement.isEmpty()) {
            err.println("weft campaign: " + placement.get(0) + ": a scenario campaign runs every node on this machine"
                    + " (a scenario's crash and start events need the node's process here)");
            return 1;
        }
        try {
            return new CampaignRunner(config, outDir, shard, err, placement).run(jobs);
        } catch (IOException e) {
            err.println("weft campaign: " + e.getMessage());
            return 1;
        }
    }

    /** The options of weft run that a campaign passes on: its runs' nodes go through these hostd agents. */
    private static final List<String> PLACEMENT = List.of("--hosts", "--place", "--token-file");

    /** The picocli model of {@code weft campaign} itself (merge, compact, verify and shrink have their own). */
    public static CommandSpec spec() {
        CommandSpec spec = CommandSpec.create().name("campaign")
                .addOption(CommandArgs.valueOption("FILE", "--config"))
                .addOption(CommandArgs.valueOption("S:N", "--seeds"))
                .addOption(CommandArgs.convertedOption("J", Integer.class, v -> CommandArgs.positiveCount(v, "--jobs"),
                        "--jobs"))
                .addOption(CommandArgs.valueOption("DIR", "--out"))
                .addOption(CommandArgs.convertedOption("k/N", Shard.class, CampaignCommand::shard, "--shard"))
                .addOption(CommandArgs.valueOption("A:PORT,...", "--hosts"))
                .addOption(CommandArgs.valueOption("RANGE@A:PORT,...", "--place"))
                .addOption(CommandArgs.valueOption("F", "--token-file"))
                .addOption(CommandArgs.helpOption());
        // the words after --config are the command's mistake to name ("unknown argument"), not picocli's
        return spec.addPositional(CommandArgs.operands("ARG"));
    }

    /** {@code weft campaign compact}'s model. */
    public static CommandSpec compactSpec() {
        return FolderArgs.spec("compact", "--keep", "N");
    }

    /** {@code weft campaign verify DIR} and {@code merge OUT DIR...}: operands only. */
    public static CommandSpec operandsSpec(String name, String label) {
        return CommandSpec.create().name(name).addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands(label));
    }

    private static Shard shard(String text) {
        try {
            return Shard.parse(text);
        } catch (IllegalArgumentException e) {
            throw new CommandArgs.BadValue(e.getMessage());
        }
    }

    private static int usageError(PrintStream err, String why) {
        err.println("weft campaign: " + why);
        err.print(USAGE);
        return 1;
    }

    /**
     * The words after a subcommand that takes only operands (and -h/--help), or null when there is anything else.
     */
    private static ParseResult operandsOnly(String name, String[] args) {
        try {
            return CommandArgs.parse(operandsSpec(name, "DIR"), java.util.Arrays.copyOfRange(args, 1, args.length));
        } catch (ArgsProblem p) {
            return null;
        }
    }

    /** Writes (first run) or checks (resume) the folder's campaign.json: one folder holds one campaign. */
    static void claim(Path outDir, String canonical) throws IOException {
        Files.createDirectories(outDir);
        Path f = outDir.resolve(CONFIG_FILE);
        if (Files.isRegularFile(f)) {
            if (!Files.readString(f, StandardCharsets.UTF_8).equals(canonical)) {
                throw new IOException(outDir + " holds a different campaign (its " + CONFIG_FILE
                        + " differs from this config and --seeds); use another --out");
            }
        } else {
            AtomicFile.write(f, canonical.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** {@code merge OUT DIR...}: every shard folder must hold the same campaign; their runs are copied to OUT. */
    private static int merge(String[] args, PrintStream out, PrintStream err) {
        ParseResult parsed = operandsOnly("merge", args);
        if (parsed != null && parsed.isUsageHelpRequested()) {
            out.print(USAGE);
            return 0;
        }
        List<String> operands = parsed == null ? List.of() : CommandArgs.operands(parsed);
        if (operands.size() < 2) {
            err.println("weft campaign merge: usage: weft campaign merge OUT DIR...");
            return 1;
        }
        Path target = Path.of(operands.get(0));
        try {
            String canonical = null;
            for (int i = 1; i < operands.size(); i++) {
                Path f = Path.of(operands.get(i)).resolve(CONFIG_FILE);
                if (!Files.isRegularFile(f)) {
                    throw new IOException(operands.get(i) + " is not a campaign folder (no " + CONFIG_FILE + ")");
                }
                String c = Files.readString(f, StandardCharsets.UTF_8);
                if (canonical != null && !canonical.equals(c)) {
                    throw new IOException(operands.get(i) + " holds a different campaign than " + operands.get(1));
                }
                canonical = c;
            }
            CampaignConfig config = CampaignConfig.parseCanonical(canonical.getBytes(StandardCharsets.UTF_8));
            claim(target, canonical);
            for (int i = 1; i < operands.size(); i++) {
                Path runs = Path.of(operands.get(i)).resolve("runs");
                if (!Files.isDirectory(runs) || runs.toAbsolutePath().normalize()
                        .equals(target.resolve("runs").toAbsolutePath().normalize())) {
                    continue;
                }
                try (var files = Files.walk(runs)) {
                    for (Path p : (Iterable<Path>) files.sorted()::iterator) {
                        String name = p.getFileName().toString();
                        if (Files.isRegularFile(p) && (name.endsWith(".weftlog") || name.endsWith(RunResult.SUFFIX)
                                || name.endsWith(".history.jsonl"))) {
                            Path to = target.resolve("runs").resolve(runs.relativize(p).toString());
                            Files.createDirectories(to.getParent());
                            if (name.endsWith(".weftlog") || name.endsWith(".history.jsonl")) {
                                Files.copy(p, to, StandardCopyOption.REPLACE_EXISTING);
                            }
                        } else if (Files.isRegularFile(p) && name.endsWith(Confirmation.SUFFIX)) {
                            Path to = target.resolve("runs").resolve(runs.relativize(p).toString());
                            Files.createDirectories(to.getParent());
                            AtomicFile.write(to, Files.readAllBytes(p));
                        }
                    }
                }
                // results last, after their recordings: a result names a kept recording that is already there
                try (var files = Files.walk(runs)) {
                    for (Path p : (Iterable<Path>) files.sorted()::iterator) {
                        if (Files.isRegularFile(p) && p.getFileName().toString().endsWith(RunResult.SUFFIX)) {
                            AtomicFile.write(target.resolve("runs").resolve(runs.relativize(p).toString()),
                                    Files.readAllBytes(p));
                        }
                    }
                }
            }
            List<PlannedRun> plan = PlannedRun.plan(config, config.seedStart(), config.seedCount());
            CampaignReport report = new CampaignReport(config, plan, target);
            report.write(target);
            out.println("merged " + (operands.size() - 1) + " folder(s) into " + target + ": " + target.resolve("report.md"));
            return report.anyViolation() ? 2 : 0;
        } catch (IOException e) {
            err.println("weft campaign merge: " + e.getMessage());
            return 1;
        } catch (CampaignConfig.ConfigException e) {
            err.println("weft campaign merge: " + CONFIG_FILE + ": " + e.getMessage());
            return 1;
        }
    }

    /** {@code verify DIR}: see {@link Verification}. */
    private static int verify(String[] args, PrintStream out, PrintStream err) {
        ParseResult parsed = operandsOnly("verify", args);
        if (parsed != null && parsed.isUsageHelpRequested()) {
            out.print(USAGE);
            return 0;
        }
        List<String> operands = parsed == null ? List.of() : CommandArgs.operands(parsed);
        if (operands.size() != 1) {
            err.println("weft campaign verify: usage: weft campaign verify DIR");
            return 1;
        }
        Path dir = Path.of(operands.get(0));
        try {
            return Verification.verify(dir, out) == 0 ? 0 : 1;
        } catch (IOException | CampaignConfig.ConfigException e) {
            return folderFailed("verify", dir, e, err);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /** {@code compact DIR [--keep N]}: see {@link Compaction}. */
    private static int compact(String[] args, PrintStream out, PrintStream err) {
        Path dir = null;
        try {
            FolderArgs parsed = FolderArgs.parse(compactSpec(), "--keep", java.util.Arrays.copyOfRange(args, 1,
                    args.length), "usage: weft campaign compact DIR [--keep N]");
            if (parsed.help()) {
                out.print(USAGE);
                return 0;
            }
            dir = parsed.dir();
            int keep = parsed.count() == null ? 1 : parsed.count();
            int dropped = Compaction.compact(dir, keep);
            out.println("compacted " + dir + ": " + dropped + " recording(s) replaced by their line in "
                    + dir.resolve(Compaction.FILE));
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("weft campaign compact: " + e.getMessage());
            return 1;
        } catch (IOException | CampaignConfig.ConfigException e) {
            return folderFailed("compact", dir, e, err);
        }
    }

    /** A folder subcommand's failure: a folder without {@code campaign.json} (or no folder) is named as such. */
    private static int folderFailed(String subcommand, Path dir, Exception e, PrintStream err) {
        err.println("weft campaign " + subcommand + ": " + (e instanceof NoSuchFileException
                ? dir + " is not a campaign folder (no " + CONFIG_FILE + ")" : e.getMessage()));
        return 1;
    }

    private static long[] seedRange(String s) {
        int c = s.indexOf(':');
        try {
            if (c > 0) {
                long start = Long.parseUnsignedLong(s.substring(0, c));
                long count = Long.parseLong(s.substring(c + 1));
                if (count >= 1) {
                    return new long[] {start, count};
                }
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException("--seeds wants START:COUNT with COUNT >= 1, got \"" + s + "\"");
    }

    static List<String> list(String... a) {
        return new ArrayList<>(List.of(a));
    }
}
