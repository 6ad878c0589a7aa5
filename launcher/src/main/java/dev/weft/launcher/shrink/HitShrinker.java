package dev.weft.launcher.shrink;

import dev.weft.history.HistoryFile;
import dev.weft.io.AtomicFile;
import dev.weft.launcher.campaign.CampaignConfig;
import dev.weft.launcher.campaign.PlannedRun;
import dev.weft.launcher.campaign.RunExecutor;
import dev.weft.launcher.campaign.RunResult;
import dev.weft.log.LogReader;
import dev.weft.log.WeftLogException;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.net.NetSpecException;
import dev.weft.replay.PlanExtractor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Shrinks one finding (a failing seed of one campaign cell) to a 1-minimal fault plan: takes the plan the failing
 * recording followed, checks that the run under that plan fails the same way, runs {@link DeltaDebugger} over the
 * plan's deviations with live re-runs ({@link LiveOracle}) and writes the outputs into one folder
 * ({@link ShrinkOutputs}). docs/shrinking.md.
 */
final class HitShrinker {

    /** Names the outputs of a shrink may have in its folder; anything else there is the user's and is not touched. */
    static final Set<String> OWN_FILES = Set.of(ShrinkOutputs.PLAN, ShrinkOutputs.MINIMAL,
            ShrinkOutputs.MINIMAL + ".plan.json", "minimal.history.jsonl", ShrinkOutputs.REPORT, ShrinkOutputs.ORIGINAL,
            "original.history.jsonl", ShrinkOutputs.ORIGINAL_PLAN, ShrinkOutputs.TMP,
            // what the report's rerun command writes
            ShrinkOutputs.RERUN, ShrinkOutputs.RERUN + ".plan.json", "rerun.history.jsonl");

    private final CampaignConfig config;
    private final String configLabel;
    private final PlannedRun run;
    private final RunExecutor executor;
    private final Path outDir;
    private final int jobs;
    private final ShrinkReport.Commands commands;
    private final java.io.PrintStream err;
    private final boolean terminal;

    HitShrinker(CampaignConfig config, String configLabel, PlannedRun run, Path outDir, ShrinkReport.Commands commands,
            int jobs, java.io.PrintStream err, boolean terminal) {
        this.config = config;
        this.configLabel = configLabel;
        this.run = run;
        this.executor = new RunExecutor(config);
        this.outDir = outDir;
        this.commands = commands;
        this.jobs = jobs;
        this.err = err;
        this.terminal = terminal;
    }

    /** Stops the live runs (Ctrl-C): the shrink then writes its best plan so far and returns INTERRUPTED. */
    void stop() {
        executor.stopAll();
    }

    /**
     * Shrinks the finding. {@code kept} is a recording of the failing run with its verdict (a campaign's kept hit), or
     * null to record the seed first.
     */
    ShrinkOutcome shrink(Path keptLog, RunResult keptResult) throws IOException, ShrinkException {
        long start = System.nanoTime();
        claim(outDir);
        Path tmp = outDir.resolve(ShrinkOutputs.TMP);
        deleteTree(tmp);
        Files.createDirectories(tmp);
        ShrinkReport report = new ShrinkReport(configLabel, run, jobs, commands, config.windowed());
        ShrinkProgress progress = new ShrinkProgress(err, terminal, 0);
        try {
            Path original = keptLog;
            RunResult result = keptResult;
            if (original == null) {
                progress.say("weft shrink: recording seed " + Long.toUnsignedString(run.seed()) + " of "
                        + run.cellName() + " (" + (config.windowed() ? "windowed" : "not windowed") + ")");
                RunExecutor.Outcome o = execute(tmp.resolve(ShrinkOutputs.ORIGINAL), null);
                if (o == null) {
                    return finish(report.interruptedBeforeShrinking(1, seconds(start)), ShrinkOutcome.INTERRUPTED);
                }
                result = o.result();
                Files.deleteIfExists(Path.of(o.recording() + ".txt"));
                if (!result.isFinding()) {
                    LiveOracle.deleteRun(o.recording());
                    return finish(report.doesNotFail(result, 1, seconds(start)), ShrinkOutcome.DOES_NOT_FAIL);
                }
                original = outDir.resolve(ShrinkOutputs.ORIGINAL);
                moveRun(o.recording(), original);
            }
            FaultPlan whole = withScenarioEvents(extract(original));
            List<PlanDeviation> deviations = PlanDeviation.of(whole);
            AtomicFile.write(outDir.resolve(ShrinkOutputs.ORIGINAL_PLAN),
                    FaultPlanJson.write(whole).getBytes(StandardCharsets.UTF_8));
            int runsBefore = keptLog == null ? 1 : 0;
            progress = new ShrinkProgress(err, terminal, deviations.size());
            for (int i = 0; i < runsBefore; i++) {
                progress.ranBeforeShrinking();
            }
            progress.say("weft shrink: " + result.verdict() + " " + result.identity() + "; its plan has "
                    + deviations.size() + " deviation(s); checking that the run under it fails the same way");
            LiveOracle oracle = new LiveOracle(executor, run, candidatesNet(whole), result.bucket(), tmp, progress);
            LiveOracle.Evidence whole1 = runWhole(oracle, deviations);
            if (whole1 == null) {
                return finish(report.interruptedBeforeShrinking(progress.runs(), seconds(start)),
                        ShrinkOutcome.INTERRUPTED);
            }
            progress.ran(deviations.size(), true);
            if (!oracle.sameFinding(whole1.result())) {
                LiveOracle.deleteRun(whole1.recording());
                progress.finish();
                return finish(report.doesNotReproduce(result, whole1.result(), deviations.size(), progress.runs(),
                        seconds(start)), ShrinkOutcome.DOES_NOT_REPRODUCE);
            }
            oracle.start(new LiveOracle.Evidence(whole1.plan(), whole1.recording(), whole1.result()));
            DeltaDebugger<PlanDeviation> dd = new DeltaDebugger<>(oracle, jobs);
            List<PlanDeviation> minimal;
            boolean interrupted = false;
            try {
                minimal = dd.minimize(deviations);
            } catch (InterruptedException e) {
                minimal = dd.current();
                interrupted = true;
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            progress.finish();
            LiveOracle.Evidence best = oracle.best();
            ShrinkOutputs.write(outDir, best);
            String text = interrupted
                    ? report.interrupted(result, best.result(), minimal.size(), deviations.size(), progress.runs(),
                            seconds(start))
                    : report.shrunk(result, best.result(), minimal.size(), deviations.size(), dd.verificationRuns(),
                            progress.runs(), seconds(start));
            return finish(text, interrupted ? ShrinkOutcome.INTERRUPTED : ShrinkOutcome.SHRUNK);
        } finally {
            progress.finish();
            deleteTree(tmp);
        }
    }

    /**
     * The plan whose net every candidate names: weft run --plan wants the run's net spec exactly — the config's (for
     * a scenario campaign, the scenario's, as the config states it), which a kept recording's header may spell
     * otherwise; the recording's own when a config has none.
     */
    private FaultPlan candidatesNet(FaultPlan whole) throws ShrinkException {
        if (config.net() == null) {
            return whole;
        }
        try {
            // events named by the whole plan are named (some, or none) by every candidate too
            return FaultPlan.of(config.net(), java.util.Map.of()).withEvents(whole.events() == null ? null : List.of());
        } catch (NetSpecException e) {
            throw new ShrinkException("net: " + e.getMessage()); // checked with the config; here for the compiler
        }
    }

    /** The run under the whole plan, or null when stopping. */
    private static LiveOracle.Evidence runWhole(LiveOracle oracle, List<PlanDeviation> deviations)
            throws IOException {
        try {
            return oracle.runOnce(deviations);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private RunExecutor.Outcome execute(Path log, Path plan) throws IOException {
        try {
            return executor.execute(run, log, plan);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private ShrinkOutcome finish(String reportText, ShrinkOutcome outcome) throws IOException {
        AtomicFile.write(outDir.resolve(ShrinkOutputs.REPORT), reportText.getBytes(StandardCharsets.UTF_8));
        return outcome;
    }

    /**
     * A scenario campaign's hit: the scenario's timed events (partitions, heals, crashes, starts) join the plan, so the
     * shrink can take them away like any other fault (a recording does not say which events its run had).
     */
    private FaultPlan withScenarioEvents(FaultPlan recorded) throws IOException, ShrinkException {
        if (config.scenario() == null) {
            return recorded;
        }
        try {
            List<dev.weft.scenario.ScenarioEvent> events = dev.weft.scenario.Scenarios.load(Path.of(config.scenario()))
                    .events();
            return events.isEmpty() ? recorded : recorded.withEvents(events);
        } catch (dev.weft.scenario.ScenarioException e) {
            throw new ShrinkException(config.scenario() + ": " + e.getMessage());
        }
    }

    /** The plan a recording followed; a recording whose fates a plan cannot name is a ShrinkException. */
    private static FaultPlan extract(Path recording) throws IOException, ShrinkException {
        try (LogReader reader = LogReader.open(recording)) {
            return PlanExtractor.extract(reader);
        } catch (WeftLogException e) {
            throw new ShrinkException(recording + ": " + e.getMessage());
        } catch (NetSpecException e) {
            throw new ShrinkException(recording + ": header net spec unusable: " + e.getMessage());
        } catch (PlanExtractor.Unsupported e) {
            throw new ShrinkException(recording + ": cannot be shrunk: " + e.getMessage());
        }
    }

    /**
     * Makes {@code dir} ours: created if missing; refused if it holds anything but a previous shrink's outputs,
     * which are removed (a shrink that ends differently must not leave an older plan beside its report).
     */
    static void claim(Path dir) throws IOException, ShrinkException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new ShrinkException(dir + " is not a folder");
        }
        Files.createDirectories(dir);
        try (var s = Files.list(dir)) {
            for (Path p : (Iterable<Path>) s.sorted()::iterator) {
                String name = p.getFileName().toString();
                if (!OWN_FILES.contains(name) && !name.endsWith(".weft-tmp")) {
                    throw new ShrinkException(dir + " holds " + name + ", which weft shrink did not write; use an empty"
                            + " or new --out folder (a shrink's own outputs there are replaced)");
                }
            }
        }
        for (String own : OWN_FILES) {
            if (!own.equals(ShrinkOutputs.TMP)) {
                Files.deleteIfExists(dir.resolve(own));
            }
        }
    }

    private static void moveRun(Path from, Path to) throws IOException {
        Path history = HistoryFile.beside(from);
        if (Files.isRegularFile(history)) {
            Files.move(history, HistoryFile.beside(to), StandardCopyOption.REPLACE_EXISTING);
        }
        Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
