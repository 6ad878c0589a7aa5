package dev.weft.launcher.campaign;

import dev.weft.history.HistoryFile;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs the runs of one shard that have no result yet, J at a time, then writes the report. Ctrl-C (a shutdown
 * hook) stops the live runs, which then do not count, and writes the report of what is done; a later run with the
 * same folder does the rest.
 */
final class CampaignRunner {
    private final CampaignConfig config;
    private final Path outDir;
    private final Shard shard;
    private final PrintStream err;
    private final RunExecutor executor;
    private final String canonical;
    private final ReportOnce report = new ReportOnce();

    CampaignRunner(CampaignConfig config, Path outDir, Shard shard, PrintStream err) {
        this(config, outDir, shard, err, List.of());
    }

    /** {@code placement}: weft run's {@code --hosts}/{@code --place}/{@code --token-file} for every run (not reported). */
    CampaignRunner(CampaignConfig config, Path outDir, Shard shard, PrintStream err, List<String> placement) {
        this.config = config;
        this.outDir = outDir;
        this.shard = shard;
        this.err = err;
        this.executor = new RunExecutor(config, placement);
        this.canonical = config.canonicalJson();
    }

    /** Runs the shard's remaining runs, {@code jobs} at a time; returns the exit code. */
    int run(int jobs) throws IOException {
        CampaignCommand.claim(outDir, canonical);
        Path tmp = outDir.resolve("tmp");
        deleteTree(tmp); // partial recordings of runs that a Ctrl-C or a crash cut short
        Files.createDirectories(tmp);
        List<PlannedRun> plan = PlannedRun.plan(config, config.seedStart(), config.seedCount());
        List<PlannedRun> todo = new ArrayList<>();
        long mine = 0;
        for (int i = 0; i < plan.size(); i++) {
            PlannedRun r = plan.get(i);
            if (shard.owns(i)) {
                mine++;
                if (RunResult.read(outDir.resolve(r.stem() + RunResult.SUFFIX)) == null) {
                    todo.add(r);
                }
            }
        }
        CampaignProgress progress = new CampaignProgress(err, todo.size(), mine - todo.size());
        err.println("weft campaign: " + mine + " run(s) in shard " + shard + " of " + plan.size() + "; "
                + (mine - todo.size()) + " already done; " + jobs + " at a time; output in " + outDir);
        ExecutorService pool = Executors.newFixedThreadPool(jobs, r -> {
            Thread t = new Thread(r, "campaign-run");
            t.setDaemon(true);
            return t;
        });
        // Pipelined checking: a run's thread hands its recording to the checker and starts the next run, so the
        // checker (pure Java in this JVM) overlaps the next run's JVM start and nodes instead of delaying them.
        ExecutorService checks = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "campaign-check");
            t.setDaemon(true);
            return t;
        });
        Thread hook = new Thread(() -> {
            executor.stopAll();
            pool.shutdownNow();
            checks.shutdownNow();
            try {
                pool.awaitTermination(30, TimeUnit.SECONDS);
                checks.awaitTermination(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            progress.finish();
            err.println("weft campaign: stopped; rerun with the same --out to resume");
            report.write(plan);
        }, "campaign-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        List<IOException> failures = new ArrayList<>();
        for (int i = 0; i < todo.size(); i++) {
            PlannedRun r = todo.get(i);
            Path tmpLog = tmp.resolve("run" + i + ".weftlog");
            pool.execute(() -> {
                try {
                    RunExecutor.Recorded rec = executor.record(r, tmpLog);
                    if (rec == null) {
                        return;
                    }
                    checks.execute(() -> {
                        try {
                            RunExecutor.Outcome o = executor.judge(rec);
                            if (o == null) {
                                return;
                            }
                            record(r, o);
                            progress.done(r.cellName(), o.result().verdict());
                        } catch (IOException e) {
                            synchronized (failures) {
                                failures.add(e);
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    });
                } catch (IOException e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (java.util.concurrent.RejectedExecutionException e) {
                    // Ctrl-C shut the checker down: this run does not count
                }
            });
        }
        pool.shutdown();
        try {
            while (!pool.awaitTermination(1, TimeUnit.SECONDS)) {
                // the hook may be running; it writes the report
            }
            checks.shutdown(); // every run has handed its recording over
            while (!checks.awaitTermination(1, TimeUnit.SECONDS)) {
                // the hook may be running; it writes the report
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (config.windowed() && !executor.stopping()) {
            try {
                confirmHits(plan);
            } catch (IOException e) {
                failures.add(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (executor.stopping()) {
            // Ctrl-C: the hook writes the report; wait here until the JVM exits
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return 130;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            return 130; // shutting down already
        }
        progress.finish();
        if (!failures.isEmpty()) {
            err.println("weft campaign: " + failures.get(0).getMessage());
        }
        CampaignReport written = report.write(plan);
        deleteTree(tmp);
        err.println("weft campaign: report in " + outDir.resolve("report.md"));
        if (!failures.isEmpty()) {
            return 1;
        }
        return written != null && written.anyViolation() ? 2 : 0;
    }

    /**
     * Re-runs live, one at a time, the first hit of each violation class among this shard's runs that has no
     * confirmation yet ({@link Confirmation}). A Ctrl-C stops it like the runs; a resume confirms the rest.
     */
    private void confirmHits(List<PlannedRun> plan) throws IOException, InterruptedException {
        List<PlannedRun> mine = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            if (shard.owns(i)) {
                mine.add(plan.get(i));
            }
        }
        List<PlannedRun> todo = new ArrayList<>();
        for (PlannedRun r : Confirmation.firstHits(mine, outDir)) {
            if (Confirmation.read(outDir.resolve(r.stem() + Confirmation.SUFFIX)) == null) {
                todo.add(r);
            }
        }
        if (todo.isEmpty()) {
            return;
        }
        err.println("weft campaign: confirming " + todo.size() + " distinct violation(s) by a live re-run");
        Path tmp = outDir.resolve("tmp");
        for (int i = 0; i < todo.size(); i++) {
            PlannedRun r = todo.get(i);
            RunExecutor.Outcome o = executor.execute(r, tmp.resolve("confirm" + i + ".weftlog"));
            if (o == null) {
                return; // stopping
            }
            Path stem = outDir.resolve(r.stem());
            Confirmation c = Confirmation.compare(RunResult.read(Path.of(stem + RunResult.SUFFIX)),
                    Confirmation.sha256(Path.of(stem + ".weftlog")), o.result(), Confirmation.sha256(o.recording()));
            c.write(Path.of(stem + Confirmation.SUFFIX));
            Files.deleteIfExists(o.recording());
            Files.deleteIfExists(HistoryFile.beside(o.recording()));
            Files.deleteIfExists(Path.of(o.recording() + ".txt"));
            err.println("weft campaign: " + r.cellName() + " seed " + Long.toUnsignedString(r.seed()) + ": "
                    + c.text());
        }
    }

    /** Keeps the recording if the policy says so, then writes the result (which marks the run done). */
    private void record(PlannedRun r, RunExecutor.Outcome o) throws IOException {
        RunResult res = o.result();
        boolean keep = Files.isRegularFile(o.recording()) && (res.verdict().equals("VIOLATION")
                || res.verdict().equals("DEADLOCK") || res.verdict().equals("OK") && samplePass(r));
        Path stem = outDir.resolve(r.stem());
        Files.createDirectories(stem.getParent());
        Path history = HistoryFile.beside(o.recording());
        if (keep) {
            // the history first: a kept recording always has its history beside it (when the run wrote one)
            if (Files.isRegularFile(history)) {
                Files.move(history, HistoryFile.beside(Path.of(stem + ".weftlog")), StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(o.recording(), Path.of(stem + ".weftlog"), StandardCopyOption.REPLACE_EXISTING);
        } else {
            Files.deleteIfExists(o.recording());
            Files.deleteIfExists(history);
        }
        Files.deleteIfExists(Path.of(o.recording() + ".txt"));
        new RunResult(res.verdict(), res.identity(), keep).write(Path.of(stem + RunResult.SUFFIX));
    }

    /** A seeded choice per (cell, seed), so a shard and a single process keep the same passes. */
    private boolean samplePass(PlannedRun r) {
        if (config.keepPassPermille() == 0) {
            return false;
        }
        long z = r.seed() + 0x9E3779B97F4A7C15L * (r.cellIndex() + 1);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return Long.remainderUnsigned(z, 1000) < config.keepPassPermille();
    }

    /**
     * The report, written once: by the end of the run or by the Ctrl-C hook, whichever comes first; the other waits
     * for that write to finish and gets null.
     */
    private final class ReportOnce {
        private boolean written;

        synchronized CampaignReport write(List<PlannedRun> plan) {
            if (written) {
                return null;
            }
            written = true;
            try {
                CampaignReport r = new CampaignReport(config, plan, outDir);
                r.write(outDir);
                return r;
            } catch (IOException e) {
                err.println("weft campaign: cannot write the report: " + e.getMessage());
                return null;
            }
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) s.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
