package dev.weft.launcher.shrink;

import dev.weft.history.HistoryFile;
import dev.weft.launcher.campaign.PlannedRun;
import dev.weft.launcher.campaign.RunExecutor;
import dev.weft.launcher.campaign.RunResult;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The shrinker's test: runs a candidate plan live ({@code weft run --plan}, the campaign's runner and checker) and
 * says whether the run still falls in the original finding's bucket — the same verdict and the same class of first
 * report (numbers masked: op numbers move as the plan changes). The recording of every failing candidate is kept
 * until a smaller one is adopted, so the adopted candidate's recording is there to become {@code minimal.weftlog}.
 */
final class LiveOracle implements DeltaDebugger.Oracle<PlanDeviation> {

    /** A run of a candidate: its plan document, its recording, its verdict. */
    record Evidence(byte[] plan, Path recording, RunResult result) {
    }

    private final RunExecutor executor;
    private final PlannedRun run;
    /** A plan over the run's net spec: every candidate's net. */
    private final FaultPlan whole;
    private final String bucket;
    private final Path tmp;
    private final ShrinkProgress progress;
    private final Map<List<PlanDeviation>, Evidence> failing = new HashMap<>();
    private Evidence best;
    private int next;

    LiveOracle(RunExecutor executor, PlannedRun run, FaultPlan whole, String bucket, Path tmp, ShrinkProgress progress) {
        this.executor = executor;
        this.run = run;
        this.whole = whole;
        this.bucket = bucket;
        this.tmp = tmp;
        this.progress = progress;
    }

    /** The plan document naming exactly {@code deviations}, over the failing run's net. */
    byte[] planDocument(List<PlanDeviation> deviations) {
        return FaultPlanJson.write(PlanDeviation.plan(whole, deviations)).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Runs {@code candidate} once; its evidence, or null when the shrink is stopping (the run does not count).
     * Every run, failing or not, is counted in the progress.
     */
    Evidence runOnce(List<PlanDeviation> candidate) throws IOException, InterruptedException {
        int id;
        synchronized (this) {
            id = next++;
        }
        byte[] plan = planDocument(candidate);
        Path planFile = tmp.resolve("c" + id + ".plan.json");
        Files.write(planFile, plan);
        Path log = tmp.resolve("c" + id + ".weftlog");
        RunExecutor.Outcome o = executor.execute(run, log, planFile);
        Files.deleteIfExists(planFile);
        Files.deleteIfExists(Path.of(log + ".txt"));
        if (o == null) {
            deleteRun(log);
            return null;
        }
        return new Evidence(plan, log, o.result());
    }

    /** Whether a run's result is the original finding again: same verdict, same class of first report. */
    boolean sameFinding(RunResult r) {
        return r.isFinding() && r.bucket().equals(bucket);
    }

    @Override
    public boolean fails(List<PlanDeviation> candidate) throws InterruptedException {
        try {
            Evidence e = runOnce(candidate);
            if (e == null) {
                throw new InterruptedException("stopped");
            }
            boolean fails = sameFinding(e.result());
            synchronized (this) {
                if (fails) {
                    Evidence old = failing.put(List.copyOf(candidate), e);
                    if (old != null && old != best) {
                        deleteRun(old.recording());
                    }
                } else {
                    deleteRun(e.recording());
                }
                progress.ran(candidate.size(), fails);
            }
            return fails;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Keeps the adopted candidate's run, drops the other failing runs (they can never be the result). */
    @Override
    public synchronized void adopted(List<PlanDeviation> candidate) {
        Evidence e = failing.remove(candidate);
        if (e == null) {
            throw new IllegalStateException("adopted a candidate that was not seen failing");
        }
        for (Evidence other : failing.values()) {
            deleteRun(other.recording());
        }
        failing.clear();
        if (best != null) {
            deleteRun(best.recording());
        }
        best = e;
        progress.adopted(candidate.size());
    }

    /** Makes a run of the whole plan (seen failing by the caller) the starting point. */
    synchronized void start(Evidence whole) {
        best = whole;
    }

    /** The run of the smallest failing candidate so far. */
    synchronized Evidence best() {
        return best;
    }

    /** Deletes what a run left: its recording, the plan copy and history beside it. */
    static void deleteRun(Path log) {
        try {
            Files.deleteIfExists(log);
            Files.deleteIfExists(Path.of(log + ".plan.json"));
            Files.deleteIfExists(Path.of(log + ".txt"));
            Files.deleteIfExists(HistoryFile.beside(log));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
