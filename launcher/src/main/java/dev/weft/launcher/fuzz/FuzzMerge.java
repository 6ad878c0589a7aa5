package dev.weft.launcher.fuzz;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigException;
import dev.weft.fuzz.FuzzOutcome;
import dev.weft.fuzz.FuzzRun;
import dev.weft.fuzz.Reproducer;
import dev.weft.fuzz.SweepShard;
import dev.weft.io.AtomicFile;
import dev.weft.io.ByteBudget;
import dev.weft.text.OsErrorText;
import dev.weft.text.RustText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft fuzz merge OUT DIR... [--jobs N] [--regressions FILE] [--max-output BYTES]}: merges the sweep results
 * of the shards of one fuzz run ({@code weft fuzz --shard I/N}) and runs phase 2 on them — shrinking, reproducers,
 * the regression file and report.txt in OUT, the same files a single {@code weft fuzz --out OUT} run writes.
 */
final class FuzzMerge {

    static final String USAGE = "usage: weft fuzz merge OUT DIR... [--jobs N] [--regressions FILE] [--max-output BYTES]";

    private FuzzMerge() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Path workDir) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), Arrays.copyOfRange(args, 1, args.length)); // (args[0] is "merge")
        } catch (ArgsProblem p) {
            return usage(err, switch (p.kind()) {
                case MISSING_VALUE -> p.argument() + " requires a value";
                case BAD_VALUE -> p.argument();
                case UNKNOWN_OPTION, UNEXPECTED_ARGUMENT, OTHER ->
                        "unexpected argument " + RustText.debugQuote(p.argument());
            });
        }
        if (parsed.isUsageHelpRequested()) {
            out.print(USAGE + "\n");
            out.flush();
            return 0;
        }
        List<String> dirs = CommandArgs.operands(parsed);
        Long jobs = parsed.matchedOptionValue("--jobs", null);
        String regressions = parsed.matchedOptionValue("--regressions", null);
        long maxOutput = parsed.matchedOptionValue("--max-output", FuzzCommand.DEFAULT_MAX_OUTPUT);
        if (dirs.size() < 2) {
            return usage(err, "give the output folder and at least one shard folder");
        }
        String outDir = dirs.get(0);
        List<SweepShard.Read> shards = new ArrayList<>();
        List<String> shown = new ArrayList<>();
        FuzzConfig config;
        try {
            for (String d : dirs.subList(1, dirs.size())) {
                String f = Path.of(d).resolve(SweepShard.FILE).toString();
                byte[] doc;
                try {
                    doc = Files.readAllBytes(workDir.resolve(f));
                } catch (NoSuchFileException e) {
                    throw new SweepShard.ShardException(d + " is not a shard folder (no " + SweepShard.FILE
                            + "; made by weft fuzz --shard I/N --out " + d + ")");
                } catch (IOException e) {
                    throw new SweepShard.ShardException(f + ": " + OsErrorText.of(e));
                }
                shards.add(SweepShard.parse(doc, f));
                shown.add(f);
            }
            var merged = SweepShard.merge(shards, shown);
            config = shards.get(0).config().withOutDir(outDir);
            if (jobs != null) {
                config = config.withJobs(jobs);
            }
            FuzzCommand.Fitted fitted = FuzzCommand.fitHeap(config, shown.get(0), false, err);
            config = fitted.config();
            FuzzRun.prepareOutDir(workDir, outDir);
            ByteBudget output = new ByteBudget(maxOutput);
            AtomicFile.removeStale(workDir.resolve(outDir));
            FuzzOutcome outcome = FuzzRun.finishMerged(config, fitted.phaseTwoThreads(), merged, SweepShard.sumTook(shards), workDir,
                    new FuzzProgress(err, System.console() != null), (path, seed, net, ops, invariants, label) ->
                            Reproducer.record(path, seed, net, ops, invariants, label, output));
            return FuzzCommand.writeOutputs(outcome, config, regressions, workDir, out, err);
        } catch (SweepShard.ShardException | FuzzConfigException e) {
            err.print("weft fuzz merge: " + e.getMessage() + "\n");
            err.flush();
            return 1;
        }
    }

    /** The picocli model of {@code weft fuzz merge}: the counts are checked when their option is met. */
    static CommandSpec spec() {
        return CommandSpec.create().name("merge")
                .addOption(CommandArgs.convertedOption("N", Long.class, v -> count(v, "--jobs"), "--jobs"))
                .addOption(CommandArgs.valueOption("FILE", "--regressions"))
                .addOption(CommandArgs.convertedOption("BYTES", Long.class, v -> count(v, "--max-output"),
                        "--max-output"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("OUT DIR..."));
    }

    /** v as a count from 0 to 2^63-1, else {@code OPTION "v": not a count}. */
    private static Long count(String v, String option) {
        Long n;
        try {
            n = RustText.parseU64(v);
        } catch (NumberFormatException e) {
            n = null;
        }
        if (n == null || n < 0) {
            throw new CommandArgs.BadValue(option + " " + RustText.debugQuote(v) + ": not a count");
        }
        return n;
    }

    private static int usage(PrintStream err, String problem) {
        err.print("weft fuzz merge: " + problem + "\n" + USAGE + "\n");
        err.flush();
        return 1;
    }
}
