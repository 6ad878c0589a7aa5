package dev.weft.app.run;

import dev.weft.app.vm.Settings;
import dev.weft.text.SeedText;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ObservableValue;

/**
 * What the run panel shows and does, without the toolkit: the form of a live {@code weft run} (checked as typed
 * with the launcher's own parsers, remembered between sessions), the equivalent command line, one run at a time
 * ({@link RunSession}) with its state and the counters read from the growing recording, and the output lines of
 * every node, queued for the view to take in batches. The session's threads hand their news to {@code ui}
 * (Platform::runLater in the workbench); the process is started and stopped on threads of its own.
 */
public final class RunViewModel {

    /** One output line: node -1 is weft run's own. */
    public record Line(long node, boolean stderr, String text) {
    }

    public final StringProperty program = text("program");
    public final StringProperty arguments = text("arguments");
    public final StringProperty nodes = text("nodes");
    public final StringProperty net = text("net");
    public final StringProperty seed = text("seed");
    public final StringProperty strategy = text("strategy");
    public final StringProperty windowNs = text("windowNs");
    public final StringProperty watchdog = text("watchdog");
    public final StringProperty env = text("env");
    public final StringProperty record = text("record");
    public final StringProperty scenario = text("scenario");
    public final BooleanProperty stats = new SimpleBooleanProperty(this, "stats");
    public final BooleanProperty trace = new SimpleBooleanProperty(this, "trace");
    public final BooleanProperty network = new SimpleBooleanProperty(this, "network", true);
    public final BooleanProperty openWhenDone = new SimpleBooleanProperty(this, "openWhenDone", true);
    public final BooleanProperty followLive = new SimpleBooleanProperty(this, "followLive", true);

    private final ReadOnlyObjectWrapper<Map<RunRequest.Field, String>> problems = new ReadOnlyObjectWrapper<>(Map.of());
    private final ReadOnlyStringWrapper commandLine = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper running = new ReadOnlyBooleanWrapper(false);
    private final ReadOnlyIntegerWrapper exitStatus = new ReadOnlyIntegerWrapper(-1);
    private final ReadOnlyObjectWrapper<Path> lastRecording = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyObjectWrapper<LogTail.Counts> counts = new ReadOnlyObjectWrapper<>(LogTail.Counts.NONE);
    private final ReadOnlyStringWrapper state = new ReadOnlyStringWrapper("not started");
    private final ReadOnlyStringWrapper figures = new ReadOnlyStringWrapper("");
    private final ReadOnlyBooleanWrapper singleProcess = new ReadOnlyBooleanWrapper(false);
    private final BooleanBinding canStart;
    /** A scenario lists its own nodes, network and seed and starts its own program. */
    private final BooleanBinding fromScenario;

    private final Settings settings;
    private final Consumer<Runnable> ui;
    private final Consumer<Path> openRecording;
    private final boolean linux;
    private final ConcurrentLinkedQueue<Line> queued = new ConcurrentLinkedQueue<>();
    /** Opens a recording that is still being written, in follow mode; null where the workbench has none. */
    private Consumer<Path> followRecording;
    /** The run on screen is being followed (it was handed over once its file appeared). */
    private boolean followed;
    /** Whether the run on (or last run) had a window: only then does exit 3 mean "discarded". */
    private boolean windowed;
    private volatile RunSession session;
    private long startedNanos;

    public RunViewModel(Settings settings, Consumer<Runnable> ui, Consumer<Path> openRecording, boolean linux) {
        this.settings = settings;
        this.ui = ui;
        this.openRecording = openRecording;
        this.linux = linux;
        restore();
        for (ObservableValue<?> v : new ObservableValue<?>[] {program, arguments, nodes, net, seed, strategy, windowNs,
                watchdog, env, record, scenario, stats, trace, network}) {
            v.addListener(o -> validate());
        }
        // A new seed (typed or +1) renames a recording named after the old one ("ring-s3.weftlog" → "ring-s4.weftlog").
        seed.addListener((o, was, now) -> {
            String renamed = RunRequest.recordForSeed(record.get(), was, now);
            if (!renamed.equals(record.get())) record.set(renamed);
        });
        canStart = Bindings.createBooleanBinding(() -> linux && problems.get().isEmpty() && !running.get(), problems, running);
        fromScenario = network.and(Bindings.createBooleanBinding(() -> !scenario.get().isBlank(), scenario));
        counts.addListener((o, a, c) -> showFigures(c));
        validate();
    }

    private StringProperty text(String name) {
        return new SimpleStringProperty(this, name, "");
    }

    /** The form as a request (what Start would run). */
    public RunRequest request() {
        return new RunRequest(program.get(), arguments.get(), nodes.get(), net.get(), seed.get(), strategy.get(),
                windowNs.get(), watchdog.get(), record.get(), env.get(), stats.get(), trace.get(), network.get(),
                scenario.get());
    }

    /** Fills the form (tests, and "run again" from a recording's settings). */
    public void fill(RunRequest r) {
        program.set(r.program());
        arguments.set(r.arguments());
        nodes.set(r.nodes());
        net.set(r.net());
        seed.set(r.seed());
        strategy.set(r.strategy());
        windowNs.set(r.windowNs());
        watchdog.set(r.watchdog());
        record.set(r.record());
        env.set(r.env());
        stats.set(r.stats());
        trace.set(r.trace());
        network.set(r.network());
        scenario.set(r.scenario());
    }

    /** Each field's problem (a program not found on PATH included); Start is possible when there are none. */
    private void validate() {
        RunRequest r = request();
        Map<RunRequest.Field, String> p = new TreeMap<>(r.problems());
        if (!p.containsKey(RunRequest.Field.PROGRAM) && !r.usesScenario()) {
            String missing = RunRequest.programNotFound(r.program(), System.getenv("PATH"));
            if (missing != null) p.put(RunRequest.Field.PROGRAM, missing);
        }
        problems.set(java.util.Collections.unmodifiableMap(p));
        commandLine.set(r.commandLine());
    }

    /** The seed after this one (as weft run reads seeds: decimal or 0x hex); the recording's name follows. */
    public void nextSeed() {
        try {
            long v = SeedText.parse(seed.get());
            seed.set(Long.toUnsignedString(v + 1));
        } catch (SeedText.InvalidSeedException e) {
            seed.set("0");
        }
    }

    /**
     * Where the workbench can follow a recording as it is written: then the recording is handed over as soon as its
     * file has a record (instead of opening it when the run ends), if {@link #followLive} is on.
     */
    public void setFollowRecording(Consumer<Path> follow) {
        this.followRecording = follow;
    }

    public boolean canFollow() {
        return followRecording != null;
    }

    /** Starts the form's run (nothing if the form has problems or a run is on). */
    public void start() {
        if (!canStart.get()) return;
        RunRequest r = request();
        save(r);
        queued.clear();
        singleProcess.set(!r.network());
        running.set(true);
        exitStatus.set(-1);
        lastRecording.set(null);
        counts.set(LogTail.Counts.NONE);
        showFigures(LogTail.Counts.NONE);
        state.set("starting…");
        windowed = r.network() && !r.windowNs().isBlank() && !r.windowNs().strip().equals("0");
        followed = false;
        startedNanos = System.nanoTime();
        Map<String, String> base = System.getenv();
        boolean single = !r.network();
        worker("weft-run-panel-start", () -> {
            try {
                session = RunSession.start(r, base, new RunSession.Listener() {
                    @Override public void line(long node, boolean stderr, String text) {
                        // a single process's output is not prefixed: it is the program's, shown as "program"
                        queued.add(new Line(single && node < 0 ? 0 : node, stderr, text));
                    }

                    @Override public void progress(LogTail.Counts c) {
                        ui.accept(() -> {
                            counts.set(c);
                            if (!followed && c.records() > 0 && followRecording != null && followLive.get()) {
                                followed = true;
                                followRecording.accept(Path.of(r.record().strip()).toAbsolutePath());
                            }
                        });
                    }

                    @Override public void finished(int status, Path recording, boolean stoppedByUser) {
                        ui.accept(() -> ended(status, recording, stoppedByUser));
                    }
                });
                ui.accept(() -> {
                    if (running.get()) state.set("running: " + r.commandLine());
                });
            } catch (IOException e) {
                ui.accept(() -> {
                    queued.add(new Line(-1, true, "cannot start weft run: " + e.getMessage()));
                    ended(-1, null, false);
                });
            }
        });
    }

    /** Stops the run (SIGTERM to weft run, which finishes the log); the end arrives as usual. */
    public void stop() {
        RunSession s = session;
        if (s == null || !running.get()) return;
        state.set("stopping: every node is stopped and the log finished…");
        worker("weft-run-panel-stop", () -> s.stop(10));
    }

    private void ended(int status, Path recording, boolean stoppedByUser) {
        running.set(false);
        exitStatus.set(status);
        session = null;
        showFigures(counts.get());
        String took = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startedNanos) / 1e9);
        state.set((status < 0 ? "did not start" : "ended: exit status " + status + " — "
                + (singleProcess.get() && status == 0 ? "the program exited 0" : RunSession.meaning(status, stoppedByUser, windowed)))
                + " (after " + took + ")" + (recording != null ? "; recorded to " + recording : ""));
        lastRecording.set(recording);
        if (recording != null && openWhenDone.get() && !followed) openRecording.accept(recording);
    }

    /** Opens the last run's recording in the main window. */
    public void openLastRecording() {
        if (lastRecording.get() != null) openRecording.accept(lastRecording.get());
    }

    /** The output lines queued since the last call, oldest first (the view appends them in batches). */
    public List<Line> takeLines() {
        List<Line> lines = new ArrayList<>();
        for (Line l = queued.poll(); l != null; l = queued.poll()) lines.add(l);
        return lines;
    }

    private void showFigures(LogTail.Counts c) {
        if (c == null || c.records() == 0) {
            figures.set(running.get() ? "waiting for the first record…" : "");
            return;
        }
        figures.set(String.format(Locale.ROOT,
                "%,d records · op %,d · virtual time %s · %,d sent · %,d delivered · %,d dropped%s%s",
                c.records(), c.lastOp(), vtText(c.lastVt()), c.sends(), c.delivered(), c.dropped(),
                c.violations() > 0 ? " · " + c.violations() + " violation records" : "",
                c.ended() ? " · end record written" : running.get() ? " · recording…" : " · no end record"));
    }

    static String vtText(long ns) {
        if (ns < 1_000) return ns + " ns";
        if (ns < 1_000_000) return String.format(Locale.ROOT, "%.1f µs", ns / 1e3);
        if (ns < 1_000_000_000) return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        return String.format(Locale.ROOT, "%.3f s", ns / 1e9);
    }

    private static void worker(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        t.start();
    }

    // ---- remembered settings --------------------------------------------------------------------

    private void restore() {
        program.set(settings.get("run.program", ""));
        arguments.set(settings.get("run.arguments", ""));
        nodes.set(settings.get("run.nodes", "2"));
        net.set(settings.get("run.net", "latency=uniform:1000-60000"));
        seed.set(settings.get("run.seed", "0"));
        strategy.set(settings.get("run.strategy", "random"));
        windowNs.set(settings.get("run.window", ""));
        watchdog.set(settings.get("run.watchdog", "30"));
        env.set(settings.get("run.env", ""));
        record.set(settings.get("run.record", Path.of(System.getProperty("user.home"), "weft-runs", "run-s0.weftlog").toString()));
        stats.set(Boolean.parseBoolean(settings.get("run.stats", "false")));
        trace.set(Boolean.parseBoolean(settings.get("run.trace", "false")));
        network.set(Boolean.parseBoolean(settings.get("run.network", "true")));
        scenario.set(settings.get("run.scenario", ""));
    }

    private void save(RunRequest r) {
        settings.put("run.program", r.program());
        settings.put("run.arguments", r.arguments());
        settings.put("run.nodes", r.nodes());
        settings.put("run.net", r.net());
        settings.put("run.seed", r.seed());
        settings.put("run.strategy", r.strategy());
        settings.put("run.window", r.windowNs());
        settings.put("run.watchdog", r.watchdog());
        settings.put("run.env", r.env());
        settings.put("run.record", r.record());
        settings.put("run.stats", Boolean.toString(r.stats()));
        settings.put("run.trace", Boolean.toString(r.trace()));
        settings.put("run.network", Boolean.toString(r.network()));
        settings.put("run.scenario", r.scenario());
        settings.save();
    }

    public ReadOnlyObjectProperty<Map<RunRequest.Field, String>> problems() { return problems.getReadOnlyProperty(); }
    public ReadOnlyStringProperty commandLine() { return commandLine.getReadOnlyProperty(); }
    public ReadOnlyBooleanProperty running() { return running.getReadOnlyProperty(); }
    /** weft run's exit status once the last run ended; -1 before. */
    public ReadOnlyIntegerProperty exitStatus() { return exitStatus.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<Path> lastRecording() { return lastRecording.getReadOnlyProperty(); }
    public ReadOnlyObjectProperty<LogTail.Counts> counts() { return counts.getReadOnlyProperty(); }
    public ReadOnlyStringProperty state() { return state.getReadOnlyProperty(); }
    /** The counters of the growing recording, in words. */
    public ReadOnlyStringProperty figures() { return figures.getReadOnlyProperty(); }
    /** The run on screen is one process without a network (its output tab is "program", not "node 0"). */
    public ReadOnlyBooleanProperty singleProcess() { return singleProcess.getReadOnlyProperty(); }
    public BooleanBinding canStart() { return canStart; }
    public BooleanBinding fromScenario() { return fromScenario; }
    /** The running session, or null (for tests that check the stop reached every process). */
    public RunSession session() { return session; }
}
