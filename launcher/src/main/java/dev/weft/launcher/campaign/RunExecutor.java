package dev.weft.launcher.campaign;

import dev.weft.history.HistoryFile;
import dev.weft.launcher.WeftCommand;
import dev.weft.protocol.Protocol;
import dev.weft.protocol.Protocols;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Records one run with a real {@code weft run … --record} in a child JVM and judges the recording with the checker.
 *
 * <p>Why a child process rather than calling weft run in this JVM: a run hosts a broker, a watchdog and Ctrl-C
 * handling of its own, and a hung or crashing target must cost one run, not the campaign. A child is stopped as a
 * whole at the time bound or on Ctrl-C (its own shutdown stops its nodes). The price is a JVM start per run
 * (~0.3 s of CPU; docs/campaigns.md has the measured overhead). The checkers are pure Java over the recording and
 * run in this JVM.
 */
public final class RunExecutor {
    /** Exit status of weft run after Ctrl-C: the recording is partial, so the run is not done. */
    private static final int INTERRUPTED = 130;
    /** Exit status of weft run after the deadlock verdict (docs/broker.md). */
    static final int DEADLOCK_EXIT = 4;

    /** The outcome: a result, or null when the campaign is stopping and this run does not count. */
    public record Outcome(RunResult result, Path recording) {
    }

    /**
     * A run whose child has ended: either already decided ({@code outcome}: an error, no recording) or a recording
     * still to be judged ({@code exit} and the run's output file beside it).
     */
    record Recorded(Outcome outcome, Path recording, int exit, Path output) {
    }

    private final CampaignConfig config;
    private final Set<Process> live = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    /**
     * Where the nodes run: weft run's {@code --hosts}/{@code --place}/{@code --token-file}, or empty (here). Only the
     * runs get them; the report's commands do not, since a windowed run records the same wherever its nodes run.
     */
    private final List<String> placement;

    public RunExecutor(CampaignConfig config) {
        this(config, List.of());
    }

    RunExecutor(CampaignConfig config, List<String> placement) {
        this.config = config;
        this.placement = List.copyOf(placement);
    }

    /** The {@code weft run} arguments for a run recording to {@code log} (also printed as the rerun command). */
    List<String> runArgs(PlannedRun run, String log) {
        return runArgs(run, log, null);
    }

    /**
     * The {@code weft run} arguments for a run recording to {@code log}, its network fates taken from the fault plan
     * {@code plan} when it is not null ({@code weft shrink}'s candidate runs).
     */
    public List<String> runArgs(PlannedRun run, String log, String plan) {
        List<String> a = new ArrayList<>(List.of("run", "--seed", Long.toUnsignedString(run.seed())));
        if (config.scenario() == null) {
            a.addAll(List.of("--net", config.net(), "--nodes", Integer.toString(config.nodes())));
        }
        a.addAll(List.of("--record", log));
        if (plan != null) {
            a.addAll(List.of("--plan", plan));
        }
        if (config.windowed()) {
            a.addAll(List.of("--window", Long.toString(config.windowNs())));
        }
        if (config.watchdogSecs() > 0) {
            a.addAll(List.of("--watchdog", Long.toString(config.watchdogSecs())));
        }
        if (config.shim() != null) {
            a.addAll(List.of("--shim", config.shim()));
        }
        if (config.scenario() != null) {
            a.add(config.scenario()); // the scenario names its nodes, programs and net (docs/campaigns.md)
            return a;
        }
        a.add("--");
        a.addAll(config.target());
        return a;
    }

    /**
     * The checker's arguments (a weft command or the external command) for {@code log}; {@code history:MODEL} judges
     * the history weft run wrote beside it.
     */
    public List<String> checkArgs(String log) {
        if (config.checkerCommand() != null) {
            List<String> a = new ArrayList<>(config.checkerCommand());
            a.add(log);
            return a;
        }
        String c = config.checker();
        if (c.startsWith(CampaignConfig.HISTORY)) {
            return List.of("check", "history", HistoryFile.beside(Path.of(log)).toString(), "--model",
                    c.substring(CampaignConfig.HISTORY.length()));
        }
        for (Protocol p : Protocols.all()) {
            List<String> args = p.campaignCheck(c, log);
            if (args != null) return args;
        }
        return List.of("replay", log, "--check", c);
    }

    /** Records {@code run} to {@code tmpLog} (deleted first) and judges it; output goes to {@code tmpLog}.txt. */
    Outcome execute(PlannedRun run, Path tmpLog) throws IOException, InterruptedException {
        return execute(run, tmpLog, null);
    }

    /**
     * As {@link #execute(PlannedRun, Path)}, under the fault plan file {@code plan} when it is not null (weft run
     * copies it beside the recording as {@code tmpLog.plan.json}). Null when stopping: the run does not count.
     */
    public Outcome execute(PlannedRun run, Path tmpLog, Path plan) throws IOException, InterruptedException {
        Recorded r = record(run, tmpLog, plan);
        return r == null ? null : judge(r);
    }

    /** The second half of {@link #execute}: the checker's verdict on a recorded run (null if the campaign stops). */
    Outcome judge(Recorded r) throws IOException, InterruptedException {
        if (r.outcome() != null) {
            return r.outcome();
        }
        if (stopping) {
            return null;
        }
        RunResult judged = judge(r.recording().toString());
        return new Outcome(deadlockOr(judged, r.exit(), r.output()), r.recording());
    }

    /** {@link #record(PlannedRun, Path, Path)} with no fault plan. */
    Recorded record(PlannedRun run, Path tmpLog) throws IOException, InterruptedException {
        return record(run, tmpLog, null);
    }

    /**
     * The first half of {@link #execute}: records {@code run} to {@code tmpLog} (deleted first), under {@code plan}
     * when not null; null when the campaign is stopping. The campaign judges the recording on another thread while
     * the next run records.
     */
    Recorded record(PlannedRun run, Path tmpLog, Path plan) throws IOException, InterruptedException {
        Files.deleteIfExists(tmpLog);
        Files.deleteIfExists(HistoryFile.beside(tmpLog));
        Files.deleteIfExists(Path.of(tmpLog + ".plan.json"));
        Path output = Path.of(tmpLog + ".txt");
        List<String> cmd = new ArrayList<>(javaCommand());
        List<String> args = runArgs(run, tmpLog.toString(), plan == null ? null : plan.toString());
        int tail = args.contains("--") ? args.indexOf("--") : args.size() - 1; // the program, or the scenario
        cmd.addAll(args.subList(0, tail));
        cmd.addAll(placement);
        cmd.addAll(args.subList(tail, args.size()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(output.toFile());
        Map<String, String> env = pb.environment();
        env.remove("LD_PRELOAD"); // the child JVM runs unsimulated; weft run clears stale WEFT_* switches itself
        env.putAll(config.env());
        env.putAll(run.cell());
        if (stopping) {
            return null;
        }
        Process p = pb.start();
        live.add(p);
        int exit;
        try {
            if (!p.waitFor(config.timeBoundSecs(), TimeUnit.SECONDS)) {
                stop(p);
                return stopping ? null
                        : decided(new RunResult("ERROR", "time bound of " + config.timeBoundSecs() + " s", false),
                                tmpLog);
            }
            exit = p.exitValue();
        } finally {
            live.remove(p);
            // weft run's LOG.run.json names the campaign's temporary recording: a campaign keeps no recipes
            Files.deleteIfExists(dev.weft.launcher.run.RunRecipe.of(tmpLog));
        }
        if (stopping || exit == INTERRUPTED) {
            return null;
        }
        if (!Files.isRegularFile(tmpLog) || Files.size(tmpLog) == 0) {
            return decided(new RunResult("ERROR", "weft run exited " + exit + " without a recording", false),
                    tmpLog);
        }
        return new Recorded(null, tmpLog, exit, output);
    }

    private static Recorded decided(RunResult result, Path tmpLog) {
        return new Recorded(new Outcome(result, tmpLog), tmpLog, -1, null);
    }

    /**
     * A run that ended with the broker's deadlock verdict (weft run exit 4 and its {@code weft run: deadlock:} line)
     * goes to the DEADLOCK bucket — unless the checker found a VIOLATION, which is the finding that matters more.
     */
    static RunResult deadlockOr(RunResult judged, int exit, Path runOutput) throws IOException {
        if (exit != DEADLOCK_EXIT || judged.verdict().equals("VIOLATION")) {
            return judged;
        }
        for (String line : Files.readAllLines(runOutput, StandardCharsets.UTF_8)) {
            if (line.startsWith("weft run: deadlock: ")) {
                return new RunResult("DEADLOCK", line.substring("weft run: ".length()), false);
            }
        }
        return judged;
    }

    /** The checker's verdict on a recording: 0 OK, 2 VIOLATION, 3 DISCARD, anything else ERROR. */
    RunResult judge(String log) throws IOException, InterruptedException {
        List<String> args = checkArgs(log);
        int code;
        String text;
        if (config.checkerCommand() != null) {
            Process p = new ProcessBuilder(args).redirectErrorStream(true).start();
            live.add(p);
            try {
                text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                code = p.waitFor();
            } finally {
                live.remove(p);
            }
        } else {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(buf, true, StandardCharsets.UTF_8);
            WeftCommand command = args.get(0).equals("check") ? WeftCommand.CHECK : WeftCommand.REPLAY;
            code = command.run(args.subList(1, args.size()).toArray(String[]::new), ps, ps);
            text = buf.toString(StandardCharsets.UTF_8);
        }
        String verdict = switch (code) {
            case 0 -> "OK";
            case 2 -> "VIOLATION";
            case 3 -> "DISCARD";
            default -> "ERROR";
        };
        return new RunResult(verdict, verdict.equals("OK") ? "" : identity(text, code), false);
    }

    /**
     * What the checker reported first: the protocol checkers' first ✗ line, the invariant checkers' first
     * invariant/what pair, else the first line of output. Paths are not in it (they differ between machines).
     */
    static String identity(String text, int code) {
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (t.startsWith("✗")) {
                return t.substring(1).strip();
            }
            if (t.startsWith("invariant :")) {
                String what = "";
                for (int k = i + 1; k < lines.length && k < i + 4; k++) {
                    if (lines[k].strip().startsWith("what")) {
                        what = " " + lines[k].strip().replaceFirst("^what\\s*:\\s*", "");
                    }
                }
                return t.replaceFirst("^invariant\\s*:\\s*", "") + ":" + what;
            }
        }
        for (String l : lines) {
            String t = l.strip();
            if (!t.isEmpty() && !t.startsWith("=") && !t.startsWith("recording")) {
                return t;
            }
        }
        return "checker exited " + code;
    }

    /** Stops every live child (Ctrl-C): later runs are not started, finished ones are not counted. */
    public void stopAll() {
        stopping = true;
        for (Process p : List.copyOf(live)) {
            stop(p);
        }
    }

    public boolean stopping() {
        return stopping;
    }

    /** SIGTERM first, so weft run stops its nodes; then SIGKILL. */
    private static void stop(Process p) {
        p.destroy();
        try {
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(2, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** This JVM's java and class path, running the weft main class. */
    private static List<String> javaCommand() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-XX:-UsePerfData"));
        String archive = System.getProperty("weft.cds.archive");
        if (archive != null && archive.endsWith(".aot")) {
            // a JDK 25+ AOT cache (./weft's choice on such a JDK): usable only with the module options it was
            // trained with, which ./weft gives every JVM on that JDK
            cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-XX:AOTCache=" + archive, "-Xlog:disable",
                    "-Xlog:all=off", "-Dweft.cds.archive=" + archive));
        } else if (archive != null && !archive.isEmpty()) {
            // the class-data archive ./weft started us with (same class path): each run's JVM maps its ~1,250
            // classes instead of loading them from the jars again; a stale archive is ignored silently
            cmd.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:disable", "-Xlog:all=off",
                    "-Dweft.cds.archive=" + archive));
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.weft.launcher.WeftMain"));
        return cmd;
    }
}
