package dev.weft.launcher.shrink;

import dev.weft.launcher.campaign.CampaignConfig;
import dev.weft.launcher.campaign.PlannedRun;
import dev.weft.launcher.campaign.RunExecutor;
import dev.weft.launcher.campaign.RunResult;
import dev.weft.text.ShellWords;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The text of {@code report.txt}: one {@code key: value} line each, starting with {@code result:} (how the shrink
 * ended). Every line is a pure function of the runs' verdicts except {@code runs:} (more jobs may spend more runs on
 * candidates after the adopted one) and {@code time:} (a wall-clock measurement).
 */
final class ShrinkReport {

    /** The exact commands that re-run the minimal plan and judge the re-run, for the report. */
    record Commands(String rerun, String check) {

        /** {@code weft run … --plan PLAN --record LOG} with the cell's variables, then the campaign's checker. */
        static Commands of(CampaignConfig config, PlannedRun run, String plan, String log) {
            RunExecutor ex = new RunExecutor(config);
            StringBuilder sb = new StringBuilder();
            Map<String, String> env = new TreeMap<>(config.env());
            env.putAll(run.cell());
            env.forEach((k, v) -> sb.append(k).append('=').append(ShellWords.quote(v)).append(' '));
            sb.append("weft ").append(ShellWords.join(ex.runArgs(run, log, plan)));
            String check = (config.checkerCommand() != null ? "" : "weft ") + ShellWords.join(ex.checkArgs(log));
            return new Commands(sb.toString(), check);
        }
    }

    private final String config;
    private final PlannedRun run;
    private final int jobs;
    private final Commands commands;
    private final boolean windowed;

    ShrinkReport(String config, PlannedRun run, int jobs, Commands commands, boolean windowed) {
        this.windowed = windowed;
        this.config = config;
        this.run = run;
        this.jobs = jobs;
        this.commands = commands;
    }

    String shrunk(RunResult original, RunResult minimal, int size, int total, int verificationRuns, int runs,
            double secs) {
        return head("shrunk") + finding(original, minimal) + "plan: " + size + " deviation(s) of " + total + "\n"
                + (size == 0 ? "1-minimal: yes: the finding needs none of the plan's deviations (the baseline network"
                        + " shows it)\n"
                        : "1-minimal: yes: removing any one of its " + size + " deviation(s) loses the violation (checked"
                        + " by " + verificationRuns + " fresh run(s))\n")
                + tail(runs, secs) + commands();
    }

    String interrupted(RunResult original, RunResult best, int size, int total, int runs, double secs) {
        return head("interrupted (Ctrl-C): plan.json is the smallest failing plan found so far") + finding(original, best)
                + "plan: " + size + " deviation(s) of " + total + "\n"
                + "1-minimal: not checked (interrupted)\n" + tail(runs, secs) + commands();
    }

    String interruptedBeforeShrinking(int runs, double secs) {
        return head("interrupted (Ctrl-C) before shrinking began: no plan") + tail(runs, secs);
    }

    String doesNotFail(RunResult result, int runs, double secs) {
        return head("does not fail: seed " + Long.toUnsignedString(run.seed()) + " of " + run.cellName() + " gave "
                + result.verdict() + (result.identity().isEmpty() ? "" : " (" + result.identity() + ")")
                + ", so there is nothing to shrink") + tail(runs, secs);
    }

    String doesNotReproduce(RunResult original, RunResult underPlan, int total, int runs, double secs) {
        return head("does not reproduce: under its own plan (" + total + " deviation(s)) the run gave "
                + underPlan.verdict() + (underPlan.identity().isEmpty() ? "" : " (" + underPlan.identity() + ")")
                + ", not the original finding (" + (windowed ? "has the program changed since it was recorded?"
                        : "the config is not windowed, so one plan's runs may differ; or the program changed") + ")")
                + "verdict: " + original.verdict() + "\n" + "invariant: " + invariant(original) + "\n"
                + "first report (original): " + original.identity() + "\n" + tail(runs, secs);
    }

    private String head(String result) {
        return "weft shrink report\nresult: " + result + "\nhit: " + run.cellName() + " seed "
                + Long.toUnsignedString(run.seed()) + "\nconfig: " + config + "\n";
    }

    private static String finding(RunResult original, RunResult now) {
        return "verdict: " + original.verdict() + "\ninvariant: " + invariant(original) + "\nfirst report (original): "
                + original.identity() + "\nfirst report (minimal run): " + now.identity() + "\n";
    }

    /** The class of the finding's first report: what every kept candidate had to show again. */
    private static String invariant(RunResult r) {
        return r.bucket().substring(r.verdict().length() + 1);
    }

    private String tail(int runs, double secs) {
        return "runs: " + runs + " (" + jobs + " at a time)\ntime: " + String.format(Locale.ROOT, "%.1f", secs)
                + " s\n";
    }

    private String commands() {
        return "rerun: " + commands.rerun() + "\ncheck: " + commands.check() + "\n";
    }
}
