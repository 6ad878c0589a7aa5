package dev.weft.launcher.fuzz;

import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigException;
import dev.weft.fuzz.FuzzConfigLoader;
import dev.weft.fuzz.FuzzOutcome;
import dev.weft.fuzz.FuzzReport;
import dev.weft.fuzz.FuzzRun;
import dev.weft.fuzz.MemoryBudget;
import dev.weft.io.AtomicFile;
import dev.weft.io.ByteBudget;
import dev.weft.text.OsErrorText;
import dev.weft.fuzz.RegressionFile;
import dev.weft.fuzz.Reproducer;
import dev.weft.fuzz.SweepShard;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code weft fuzz --config FILE [flags]} (fuzz.md): sweep fault seeds, shrink each distinct violation,
 * write reproducers, report.txt and the regression file. Exit 0 = no violation, 2 = violations, 1 = error.
 */
public final class FuzzCommand {

    public static final String USAGE = String.join("\n",
            "Usage: weft fuzz --config <FILE> [OPTIONS]",
            "",
            "Runs a generated workload under many fault seeds, checks invariants, shrinks every distinct",
            "violation to a small reproducer weft-log and writes a report.",
            "",
            "Options:",
            "  --config <FILE>        fuzz config (JSON), required",
            "  --seeds <START:N>      sweep N seeds from START (overrides seed_start and seed_count)",
            "  --time-budget <SEC>    stop sweeping after SEC seconds of wall time (0 = no budget)",
            "  --jobs <N>             worker threads (default: the config's jobs, else all CPUs)",
            "  --out <DIR>            output directory for report.txt and reproducers",
            "  --no-shrink            write the failing workloads unshrunk",
            "  --regressions <FILE>   JSON array of seeds to test first; rewritten with the failing seeds",
            "  --max-output <BYTES>   bound on the bytes of all reproducers together (default 268435456);",
            "                         a reproducer that would pass it is not written",
            "  --shard <I/N>          sweep only queue entries i with i % N == I and write <DIR>/sweep-shard.json;",
            "                         no shrinking, reproducers or report: `weft fuzz merge` does those",
            "  -h, --help             print this help",
            "",
            "weft fuzz merge <OUT> <DIR>... [--jobs <N>] [--regressions <FILE>] [--max-output <BYTES>]",
            "  reads the sweep-shard.json of every shard 0..N-1 of one sweep from the DIRs, then shrinks and",
            "  writes the reproducers, the regression file and report.txt into OUT: what one",
            "  `weft fuzz --out OUT` run writes (report.txt's duration aside: the shards' sweep times added up).",
            "",
            "Files appear complete or not at all (written aside, then renamed); report.txt is written last.",
            "A workload that cannot fit the JVM's heap is refused before it runs.",
            "",
            "Exit status: 0 no violation, 2 violations found, 1 error.",
            "");

    /** Default bound on the bytes of a run's reproducers: far above any shrunk one, far below a disk. */
    static final long DEFAULT_MAX_OUTPUT = 256L << 20;

    private FuzzCommand() {
    }

    /** Standalone entry point (UTF-8 output whatever the locale); the {@code weft} dispatcher calls {@link #run}. */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        int code = run(args, out, err);
        out.flush();
        System.exit(code);
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Path.of("").toAbsolutePath());
    }

    /** The picocli model of {@code weft fuzz} that its arguments are parsed with. */
    public static picocli.CommandLine.Model.CommandSpec spec() {
        return FuzzArgs.spec();
    }

    /** The picocli model of {@code weft fuzz merge}. */
    public static picocli.CommandLine.Model.CommandSpec mergeSpec() {
        return FuzzMerge.spec();
    }

    /** Like {@link #run(String[], PrintStream, PrintStream)}, resolving relative paths against workDir. */
    public static int run(String[] args, PrintStream out, PrintStream err, Path workDir) {
        if (args.length > 0 && args[0].equals("merge")) {
            return FuzzMerge.run(args, out, err, workDir);
        }
        FuzzArgs a = FuzzArgs.parse(args);
        if (a.help) {
            // Product decision: help is not an error (the reference exits 1).
            out.print(USAGE);
            out.flush();
            return 0;
        }
        if (a.error != null) {
            err.print("weft fuzz: " + a.error + "\n" + (a.errorWithUsage ? "\n" + USAGE : ""));
            err.flush();
            return 1;
        }
        FuzzConfig config;
        Fitted fitted;
        try {
            config = FuzzConfigLoader.load(workDir.resolve(a.config), a.config);
            if (a.seedStart != null) config = config.withSeeds(a.seedStart, a.seedCount);
            if (a.timeBudget != null) config = config.withTimeBudget(a.timeBudget);
            if (a.jobs != null) config = config.withJobs(a.jobs);
            if (a.out != null) config = config.withOutDir(a.out);
            if (a.noShrink) config = config.withShrink(false);
            if (a.regressions != null) {
                List<Long> more = RegressionFile.read(workDir.resolve(a.regressions), a.regressions);
                config = config.withMoreRegressionSeeds(more);
            }
            fitted = fitHeap(config, a.config, a.shard != null, err);
            config = fitted.config();
            FuzzRun.prepareOutDir(workDir, config.outDir());
        } catch (FuzzConfigException e) {
            err.print("weft fuzz: " + e.getMessage() + "\n");
            err.flush();
            return 1;
        }
        // Temporary files of an earlier run that was killed before it could rename them.
        AtomicFile.removeStale(workDir.resolve(config.outDir()));

        // A terminal gets a redrawn bar; pipes and CI logs get plain milestone lines.
        FuzzProgress progress = new FuzzProgress(err, System.console() != null, a.shard != null);
        if (a.shard != null) {
            return writeShard(FuzzRun.sweepShard(config, a.shard.index(), a.shard.count(), progress), workDir, out, err);
        }
        ByteBudget output = new ByteBudget(a.maxOutput != null ? a.maxOutput : DEFAULT_MAX_OUTPUT);
        FuzzOutcome outcome = FuzzRun.run(config, fitted.phaseTwoThreads(), workDir, progress,
                (path, seed, net, ops, invariants, label) -> Reproducer.record(path, seed, net, ops, invariants, label, output));
        return writeOutputs(outcome, config, a.regressions, workDir, out, err);
    }

    /** A config whose jobs are the sweep jobs that fit the heap, and the phase-2 jobs that do. */
    record Fitted(FuzzConfig config, int phaseTwoThreads) {
    }

    /**
     * Refused before anything is created or run: a workload whose bounds pass the heap (issue 12); a phase that fits
     * only with fewer jobs gets fewer. The exception text follows {@code weft fuzz: }.
     */
    static Fitted fitHeap(FuzzConfig config, String shownPath, boolean sweepOnly, PrintStream err)
            throws FuzzConfigException {
        MemoryBudget.Plan plan = MemoryBudget.plan(config, shownPath, Runtime.getRuntime().maxMemory(), sweepOnly);
        if (plan.sweepThreads() < plan.requestedThreads()) {
            err.print("weft fuzz: note: sweeping with " + plan.sweepThreads() + " job(s), not " + plan.requestedThreads()
                    + ": each needs up to " + MemoryBudget.mib(plan.sweepPerJobBytes()) + " MiB of heap\n");
        }
        if (plan.threads() < plan.requestedThreads()) {
            err.print("weft fuzz: note: shrinking and writing reproducers with " + plan.threads() + " job(s), not "
                    + plan.requestedThreads() + ": each needs up to " + MemoryBudget.mib(plan.perJobBytes())
                    + " MiB of heap\n");
        }
        return new Fitted(config.withJobs(plan.sweepThreads()), plan.threads());
    }

    /** A shard's only output: its sweep result, for {@code weft fuzz merge}. Exit 2 if it found violations. */
    private static int writeShard(SweepShard shard, Path workDir, PrintStream out, PrintStream err) {
        Path file = Path.of(shard.config().outDir()).resolve(SweepShard.FILE);
        try {
            AtomicFile.write(workDir.resolve(file), shard.toJson().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            err.print("weft fuzz: could not write " + file + ": " + OsErrorText.of(e) + "\n");
            err.flush();
            return 1;
        }
        out.print("shard " + shard.index() + "/" + shard.count() + ": " + Long.toUnsignedString(shard.sweep().tested())
                + " seed(s) swept, " + Long.toUnsignedString(shard.sweep().failed()) + " failing, "
                + shard.sweep().findings().size() + " distinct violation(s); written to " + file
                + "\nmerge every shard's folder with: weft fuzz merge OUT DIR...\n");
        out.flush();
        return shard.sweep().findings().isEmpty() ? 0 : 2;
    }

    /** Reproducers (already written), the regression file, then report.txt; stdout gets the report. */
    static int writeOutputs(FuzzOutcome outcome, FuzzConfig config, String regressions, Path workDir, PrintStream out,
                            PrintStream err) {
        for (FuzzOutcome.Found f : outcome.found()) {
            if (f.reproError() != null) err.print("weft fuzz: " + f.reproError() + "\n");
        }
        String report = FuzzReport.render(outcome);
        // Files in the order that makes a finished report mean a finished run: reproducers (above), the
        // regression file, report.txt last; each appears complete or not at all.
        String regressionsLine = null;
        if (outcome.exitCode() != 0 && regressions != null) {
            try {
                RegressionFile.write(workDir.resolve(regressions), RegressionFile.union(outcome));
                regressionsLine = "regression seeds written to " + regressions + "\n";
            } catch (IOException e) {
                err.print("weft fuzz: could not write " + regressions + ": " + OsErrorText.of(e) + "\n");
            }
        }
        Path reportPath = Path.of(config.outDir()).resolve("report.txt");
        try {
            AtomicFile.write(workDir.resolve(reportPath), report.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            err.print("weft fuzz: could not write " + reportPath + ": " + OsErrorText.of(e) + "\n");
        }
        out.print(report);
        if (regressionsLine != null) out.print(regressionsLine);
        out.flush();
        err.flush();
        return outcome.exitCode() == 0 ? 0 : 2;
    }
}
