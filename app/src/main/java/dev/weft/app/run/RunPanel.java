package dev.weft.app.run;

import dev.weft.app.vm.Settings;
import dev.weft.app.widgets.FileDialogs;
import dev.weft.text.SeedText;
import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.Duration;

/**
 * The run panel: a form for a live {@code weft run} (program, arguments, nodes, net, seed, strategy, window,
 * watchdog, variables, recording), checked as you type with the launcher's own parsers; Start and Stop; while it
 * runs, counters read from the growing recording and every node's stdout and stderr in its own tab. When the run
 * ends the recording opens in a new tab of the main window. Shimmed runs need Linux; elsewhere the panel says so
 * and offers the command to copy.
 *
 * <p>The UI thread never waits: the process is started and stopped on a worker thread, output lines are queued by
 * the session's threads and appended here ten times a second.
 */
public final class RunPanel {

    /** The most characters kept per output area (the oldest lines go first): a chatty node cannot eat the heap. */
    static final int MAX_CHARS = 400_000;

    private final Settings settings;
    private final Consumer<Path> openRecording;
    private final boolean linux;
    private final BorderPane root = new BorderPane();

    private final TextField program = field("program", "path of the program run on every node");
    private final TextField arguments = field("arguments", "its arguments (quotes group words)");
    private final TextField nodes = field("nodes", "how many nodes (ids 0 … n−1)");
    private final TextField net = field("net", "e.g. latency=uniform:1000-60000,loss=0.01 (empty: reliable)");
    private final TextField seed = field("seed", "decimal or 0x hex");
    private final ChoiceBox<String> strategy = new ChoiceBox<>();
    private final TextField window = field("window", "none (single host)");
    private final TextField watchdog = field("watchdog", "seconds without a network op (0: none)");
    private final TextField env = field("env", "NAME=value … for every node, e.g. FIX=0");
    private final TextField record = field("record", "where the recording is written");
    private final TextField scenario = field("scenario", "a scenario .json (nodes, network, seed, timed faults): replaces program, nodes, net and seed");
    private final CheckBox stats = new CheckBox("--stats");
    private final CheckBox trace = new CheckBox("--trace");
    private final CheckBox network = new CheckBox("simulated network");
    private final CheckBox openWhenDone = new CheckBox("open the recording when the run ends");
    private final CheckBox followLive = new CheckBox("follow it live");
    /** Opens a recording that is still being written, in follow mode; null where the workbench has none. */
    private Consumer<Path> followRecording;
    /** The run on screen is being followed (it was handed over once its file appeared). */
    private boolean followed;
    private final Map<RunRequest.Field, Label> errors = new EnumMap<>(RunRequest.Field.class);
    private final TextField command = new TextField();
    private final Button start = new Button("▶ Start");
    private final Button stop = new Button("■ Stop");
    private final Button openLast = new Button("Open recording");
    private final Label state = new Label("not started");
    private final Label figures = new Label("");
    private final TabPane output = new TabPane();
    private final Map<Long, NodeTab> nodeTabs = new TreeMap<>();
    private final TextArea weftLines = area("weftOutput");
    private final TextArea allLines = area("allOutput");

    private final BooleanProperty running = new SimpleBooleanProperty(false);
    private final IntegerProperty exitStatus = new SimpleIntegerProperty(-1);
    private final ObjectProperty<Path> lastRecording = new SimpleObjectProperty<>();
    private final ObjectProperty<LogTail.Counts> counts = new SimpleObjectProperty<>(LogTail.Counts.NONE);
    private final ConcurrentLinkedQueue<Line> queued = new ConcurrentLinkedQueue<>();
    private volatile RunSession session;
    private long startedNanos;
    private final Timeline drain;
    /** The run on screen is a single process (its output tab is "program", not "node 0"). */
    private boolean singleProcess;
    /** Whether the run on (or last run) had a window: only then does exit 3 mean "discarded". */
    private boolean windowed;

    private record Line(long node, boolean stderr, String text) {
    }

    /** One node's output: stdout above, stderr below. */
    private record NodeTab(Tab tab, TextArea out, TextArea err) {
    }

    public RunPanel(Settings settings, Consumer<Path> openRecording, boolean linux) {
        this.settings = settings;
        this.openRecording = openRecording;
        this.linux = linux;
        root.getStyleClass().add("run-panel");
        root.setId("runPanel");
        strategy.getItems().addAll("random", "rr");
        strategy.setId("strategy");
        stats.setId("stats");
        openWhenDone.setId("openWhenDone");
        openWhenDone.setSelected(true);
        restore();
        root.setTop(form());
        root.setCenter(outputArea());
        for (TextField f : new TextField[] {program, arguments, nodes, net, seed, window, watchdog, env, record, scenario}) {
            f.textProperty().addListener((o, a, b) -> validate());
        }
        strategy.valueProperty().addListener((o, a, b) -> validate());
        // A new seed (typed or +1) renames a recording named after the old one ("ring-s3.weftlog" → "ring-s4.weftlog").
        seed.textProperty().addListener((o, was, now) -> {
            String renamed = RunRequest.recordForSeed(record.getText(), was, now);
            if (!renamed.equals(record.getText())) record.setText(renamed);
        });
        for (CheckBox c : new CheckBox[] {stats, trace, network}) c.selectedProperty().addListener((o, a, b) -> validate());
        // without a network there is no broker: no nodes, recording, watchdog or window
        for (TextField f : new TextField[] {window, watchdog, record, scenario}) f.disableProperty().bind(network.selectedProperty().not());
        // a scenario lists its own nodes, network and seed and starts its own program
        javafx.beans.binding.BooleanBinding fromScenario = network.selectedProperty().and(
                javafx.beans.binding.Bindings.createBooleanBinding(() -> !scenario.getText().isBlank(), scenario.textProperty()));
        for (TextField f : new TextField[] {nodes, net}) f.disableProperty().bind(network.selectedProperty().not().or(fromScenario));
        for (TextField f : new TextField[] {program, arguments, seed}) f.disableProperty().bind(fromScenario);
        network.setId("network");
        network.setTooltip(new Tooltip("off: one process under the shim, no broker and no recording (its trace and stats show in \"program\")"));
        trace.setId("trace");
        validate();
        counts.addListener((o, a, c) -> showFigures(c));
        drain = new Timeline(new KeyFrame(Duration.millis(100), e -> drainLines()));
        drain.setCycleCount(Timeline.INDEFINITE);
    }

    public Node node() { return root; }

    /**
     * Where the workbench can follow a recording as it is written: then the panel offers "follow it live" and hands
     * the recording over as soon as its file exists (instead of opening it when the run ends).
     */
    public void setFollowRecording(Consumer<Path> follow) {
        this.followRecording = follow;
        followLive.setVisible(follow != null);
    }
    public BooleanProperty runningProperty() { return running; }
    /** weft run's exit status once the last run ended; -1 before. */
    public IntegerProperty exitStatusProperty() { return exitStatus; }
    public ObjectProperty<Path> lastRecordingProperty() { return lastRecording; }
    public ObjectProperty<LogTail.Counts> countsProperty() { return counts; }
    /** The text shown in a node's stdout (or stderr) area; empty if the node printed nothing. */
    public String nodeOutput(long node, boolean stderr) {
        NodeTab t = nodeTabs.get(node);
        return t == null ? "" : (stderr ? t.err : t.out).getText();
    }
    public String weftOutput() { return weftLines.getText(); }
    /** The running session, or null (for tests that check the stop reached every process). */
    public RunSession session() { return session; }

    /** The form as a request (what Start would run). */
    public RunRequest request() {
        return new RunRequest(program.getText(), arguments.getText(), nodes.getText(), net.getText(), seed.getText(),
                strategy.getValue(), window.getText(), watchdog.getText(), record.getText(), env.getText(),
                stats.isSelected(), trace.isSelected(), network.isSelected(), scenario.getText());
    }

    /** Fills the form (tests, and "run again" from a recording's settings). */
    public void fill(RunRequest r) {
        program.setText(r.program());
        arguments.setText(r.arguments());
        nodes.setText(r.nodes());
        net.setText(r.net());
        seed.setText(r.seed());
        strategy.setValue(r.strategy());
        window.setText(r.windowNs());
        watchdog.setText(r.watchdog());
        record.setText(r.record());
        env.setText(r.env());
        stats.setSelected(r.stats());
        trace.setSelected(r.trace());
        network.setSelected(r.network());
        scenario.setText(r.scenario());
    }

    // ---- form -----------------------------------------------------------------------------------

    private Node form() {
        GridPane g = new GridPane();
        g.setHgap(8);
        g.setVgap(2);
        g.setPadding(new Insets(8));
        ColumnConstraints label = new ColumnConstraints();
        ColumnConstraints wide = new ColumnConstraints();
        wide.setHgrow(Priority.ALWAYS);
        ColumnConstraints label2 = new ColumnConstraints();
        ColumnConstraints narrow = new ColumnConstraints(150, 200, 260);
        g.getColumnConstraints().addAll(label, wide, label2, narrow);
        Button browse = new Button("…");
        browse.setTooltip(new Tooltip("choose the program"));
        browse.setOnAction(e -> FileDialogs.open(root, "Program to run on every node").ifPresent(f -> program.setText(f.getPath())));
        Button saveAs = new Button("…");
        saveAs.setTooltip(new Tooltip("choose where the recording goes"));
        saveAs.setOnAction(e -> FileDialogs.save(root, "Record the run to",
                new FileChooser.ExtensionFilter("weft-log recordings", "*.weftlog")).ifPresent(f -> record.setText(f.getPath())));
        Button nextSeed = new Button("+1");
        nextSeed.setId("nextSeed");
        nextSeed.setTooltip(new Tooltip("the seed after this one (and a recording name to match)"));
        nextSeed.setOnAction(e -> nextSeed());
        int row = 0;
        row = row(g, row, "Program", withButton(program, browse), RunRequest.Field.PROGRAM, "Seed", withButton(seed, nextSeed), RunRequest.Field.SEED);
        row = row(g, row, "Arguments", arguments, RunRequest.Field.COMMAND, "Nodes", nodes, RunRequest.Field.NODES);
        row = row(g, row, "Net", net, RunRequest.Field.NET, "Strategy", strategy, null);
        row = row(g, row, "Variables", env, RunRequest.Field.ENV, "Window (ns)", window, RunRequest.Field.WINDOW);
        row = row(g, row, "Record to", withButton(record, saveAs), RunRequest.Field.RECORD, "Watchdog (s)", watchdog, RunRequest.Field.WATCHDOG);
        Button chooseScenario = new Button("…");
        chooseScenario.setTooltip(new Tooltip("choose a scenario file"));
        chooseScenario.setOnAction(e -> FileDialogs.open(root, "Scenario (nodes, network, seed and timed faults)",
                new FileChooser.ExtensionFilter("scenarios", "*.json")).ifPresent(f -> scenario.setText(f.getPath())));
        row = row(g, row, "Scenario", withButton(scenario, chooseScenario), RunRequest.Field.SCENARIO, "", new javafx.scene.layout.Region(), null);

        command.setEditable(false);
        command.setId("commandLine");
        command.getStyleClass().add("command-line");
        Button copy = new Button("Copy");
        copy.setTooltip(new Tooltip("copy the equivalent weft run command"));
        copy.setOnAction(e -> {
            ClipboardContent c = new ClipboardContent();
            c.putString(command.getText());
            Clipboard.getSystemClipboard().setContent(c);
        });
        HBox cmd = new HBox(6, new Label("Command"), command, copy);
        HBox.setHgrow(command, Priority.ALWAYS);
        cmd.setAlignment(Pos.CENTER_LEFT);

        start.setId("startRun");
        start.setDefaultButton(true);
        start.setOnAction(e -> start());
        stop.setId("stopRun");
        stop.setOnAction(e -> stop());
        openLast.setId("openRecording");
        openLast.setOnAction(e -> {
            if (lastRecording.get() != null) openRecording.accept(lastRecording.get());
        });
        openLast.disableProperty().bind(lastRecording.isNull().or(running));
        stop.disableProperty().bind(running.not());
        state.setId("runState");
        figures.setId("runFigures");
        figures.getStyleClass().add("run-figures");
        followLive.setId("followLive");
        followLive.setSelected(true);
        followLive.setVisible(false);
        followLive.managedProperty().bind(followLive.visibleProperty());
        HBox buttons = new HBox(8, start, stop, network, stats, trace, openWhenDone, followLive, openLast);
        buttons.setAlignment(Pos.CENTER_LEFT);
        VBox box = new VBox(6, g, cmd, buttons, state, figures);
        box.setPadding(new Insets(0, 8, 6, 8));
        if (!linux) {
            Label l = new Label("Runs need Linux: the shim that makes a program deterministic is an LD_PRELOAD library."
                    + " On a Linux machine, this command makes the same run:");
            l.setWrapText(true);
            l.setId("needsLinux");
            l.getStyleClass().add("error-banner");
            box.getChildren().add(0, l);
        }
        return box;
    }

    private int row(GridPane g, int row, String l1, Node f1, RunRequest.Field e1, String l2, Node f2, RunRequest.Field e2) {
        g.add(new Label(l1), 0, row);
        g.add(f1, 1, row);
        g.add(new Label(l2), 2, row);
        g.add(f2, 3, row);
        g.add(errorLabel(e1), 1, row + 1);
        g.add(errorLabel(e2), 3, row + 1);
        return row + 2;
    }

    private Node errorLabel(RunRequest.Field f) {
        Label l = new Label();
        l.getStyleClass().add("field-error");
        l.setStyle("-fx-text-fill: #c62828; -fx-font-size: 0.85em;");
        // One line, always in the layout: an error appearing never moves the fields under the pointer (the whole
        // message is in the tooltip when it is cut).
        l.setWrapText(false);
        l.setTextOverrun(javafx.scene.control.OverrunStyle.ELLIPSIS);
        l.setMinHeight(16);
        l.setPrefHeight(16);
        l.setMaxHeight(16);
        l.setMaxWidth(Double.MAX_VALUE);
        Tooltip tip = new Tooltip();
        tip.textProperty().bind(l.textProperty());
        l.tooltipProperty().bind(javafx.beans.binding.Bindings.when(l.textProperty().isEmpty()).then((Tooltip) null).otherwise(tip));
        if (f != null) {
            l.setId("error" + f.name().charAt(0) + f.name().substring(1).toLowerCase(Locale.ROOT));
            errors.put(f, l);
        }
        return l;
    }

    private static HBox withButton(Node field, Button b) {
        b.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        HBox h = new HBox(4, field, b);
        HBox.setHgrow(field, Priority.ALWAYS);
        return h;
    }

    /** Shows each problem under its field; Start is possible when there are none (and on Linux). */
    private void validate() {
        RunRequest r = request();
        Map<RunRequest.Field, String> p = new TreeMap<>(r.problems());
        if (!p.containsKey(RunRequest.Field.PROGRAM) && !r.usesScenario()) {
            String missing = RunRequest.programNotFound(r.program(), System.getenv("PATH"));
            if (missing != null) p.put(RunRequest.Field.PROGRAM, missing);
        }
        errors.forEach((f, l) -> l.setText(p.getOrDefault(f, "")));
        String other = p.get(RunRequest.Field.COMMAND);
        if (other != null) errors.get(RunRequest.Field.COMMAND).setText(other);
        command.setText(r.commandLine());
        start.setDisable(!linux || !p.isEmpty() || running.get());
    }

    /** The problems the form shows right now (for tests). */
    public Map<RunRequest.Field, String> shownProblems() {
        Map<RunRequest.Field, String> m = new TreeMap<>();
        errors.forEach((f, l) -> {
            if (!l.getText().isEmpty()) m.put(f, l.getText());
        });
        return m;
    }

    public boolean canStart() { return !start.isDisabled(); }

    private void nextSeed() {
        try {
            long v = SeedText.parse(seed.getText());   // as weft run reads it: decimal or 0x / 0X hex
            seed.setText(Long.toUnsignedString(v + 1));   // the seed listener renames the recording to match
        } catch (SeedText.InvalidSeedException e) {
            seed.setText("0");
        }
    }

    // ---- the run --------------------------------------------------------------------------------

    /** Starts the form's run (no-op if the form has problems or a run is on). */
    public void start() {
        if (!canStart()) return;
        RunRequest r = request();
        save(r);
        clearOutput();
        running.set(true);
        exitStatus.set(-1);
        lastRecording.set(null);
        counts.set(LogTail.Counts.NONE);
        start.setDisable(true);
        state.setText("starting…");
        singleProcess = !r.network();
        windowed = r.network() && !r.windowNs().isBlank() && !r.windowNs().strip().equals("0");
        followed = false;
        startedNanos = System.nanoTime();
        drain.play();
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
                        Platform.runLater(() -> {
                            counts.set(c);
                            if (!followed && c.records() > 0 && followRecording != null && followLive.isSelected()) {
                                followed = true;
                                followRecording.accept(Path.of(r.record().strip()).toAbsolutePath());
                            }
                        });
                    }

                    @Override public void finished(int status, Path recording, boolean stoppedByUser) {
                        Platform.runLater(() -> ended(status, recording, stoppedByUser));
                    }
                });
                Platform.runLater(() -> state.setText("running: " + r.commandLine()));
            } catch (IOException e) {
                Platform.runLater(() -> {
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
        state.setText("stopping: every node is stopped and the log finished…");
        worker("weft-run-panel-stop", () -> s.stop(10));
    }

    private void ended(int status, Path recording, boolean stoppedByUser) {
        drainLines();
        drain.stop();
        running.set(false);
        exitStatus.set(status);
        session = null;
        showFigures(counts.get());
        String took = String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startedNanos) / 1e9);
        state.setText((status < 0 ? "did not start" : "ended: exit status " + status + " — "
                + (singleProcess && status == 0 ? "the program exited 0" : RunSession.meaning(status, stoppedByUser, windowed)))
                + " (after " + took + ")" + (recording != null ? "; recorded to " + recording : ""));
        lastRecording.set(recording);
        validate();
        if (recording != null && openWhenDone.isSelected() && !followed) openRecording.accept(recording);
    }

    private void showFigures(LogTail.Counts c) {
        if (c == null || c.records() == 0) {
            figures.setText(running.get() ? "waiting for the first record…" : "");
            return;
        }
        figures.setText(String.format(Locale.ROOT,
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

    // ---- output ---------------------------------------------------------------------------------

    private Node outputArea() {
        output.setId("runOutput");
        output.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        output.getTabs().addAll(new Tab("all", allLines), new Tab("weft", weftLines));
        VBox.setVgrow(output, Priority.ALWAYS);
        return output;
    }

    private void clearOutput() {
        queued.clear();
        allLines.clear();
        weftLines.clear();
        nodeTabs.clear();
        output.getTabs().removeIf(t -> t.getUserData() != null);
    }

    /** Appends the queued lines, grouped per area (one append per area per drain). */
    private void drainLines() {
        Map<TextArea, StringBuilder> batches = new java.util.LinkedHashMap<>();
        for (Line l = queued.poll(); l != null; l = queued.poll()) {
            TextArea target;
            String prefix;
            if (l.node < 0) {
                target = weftLines;
                prefix = "[weft] ";
            } else {
                NodeTab t = nodeTab(l.node);
                target = l.stderr ? t.err : t.out;
                prefix = (singleProcess ? "[program" : "[n" + l.node) + (l.stderr ? " err] " : "] ");
            }
            batches.computeIfAbsent(target, k -> new StringBuilder()).append(l.text).append('\n');
            batches.computeIfAbsent(allLines, k -> new StringBuilder()).append(prefix).append(l.text).append('\n');
        }
        batches.forEach(RunPanel::append);
    }

    private static void append(TextArea a, StringBuilder text) {
        a.appendText(text.toString());
        int over = a.getLength() - MAX_CHARS;
        if (over > 0) {
            int cut = a.getText().indexOf('\n', over);
            a.deleteText(0, cut < 0 ? over : cut + 1);
        }
    }

    private NodeTab nodeTab(long node) {
        return nodeTabs.computeIfAbsent(node, n -> {
            TextArea out = area("node" + n + "Out");
            TextArea err = area("node" + n + "Err");
            SplitPane split = new SplitPane(titled("stdout", out), titled("stderr", err));
            split.setOrientation(javafx.geometry.Orientation.VERTICAL);
            split.setDividerPositions(0.7);
            Tab tab = new Tab(singleProcess ? "program" : "node " + n, split);
            tab.setUserData(n);
            // node tabs in id order after "all" and "weft", whatever order their first lines came in
            int at = 2;
            while (at < output.getTabs().size() && (Long) output.getTabs().get(at).getUserData() < n) at++;
            output.getTabs().add(at, tab);
            return new NodeTab(tab, out, err);
        });
    }

    private static Node titled(String title, TextArea a) {
        Label l = new Label(title);
        l.getStyleClass().add("panel-header");
        VBox v = new VBox(2, l, a);
        VBox.setVgrow(a, Priority.ALWAYS);
        return v;
    }

    private static TextArea area(String id) {
        TextArea a = new TextArea();
        a.setEditable(false);
        a.setId(id);
        a.getStyleClass().add("run-output");
        a.setStyle("-fx-font-family: monospace;");
        return a;
    }

    private static TextField field(String id, String prompt) {
        TextField f = new TextField();
        f.setId(id);
        f.setPromptText(prompt);
        f.setTooltip(new Tooltip(prompt));
        return f;
    }

    // ---- remembered settings --------------------------------------------------------------------

    private void restore() {
        program.setText(settings.get("run.program", ""));
        arguments.setText(settings.get("run.arguments", ""));
        nodes.setText(settings.get("run.nodes", "2"));
        net.setText(settings.get("run.net", "latency=uniform:1000-60000"));
        seed.setText(settings.get("run.seed", "0"));
        strategy.setValue(settings.get("run.strategy", "random"));
        window.setText(settings.get("run.window", ""));
        watchdog.setText(settings.get("run.watchdog", "30"));
        env.setText(settings.get("run.env", ""));
        record.setText(settings.get("run.record", Path.of(System.getProperty("user.home"), "weft-runs", "run-s0.weftlog").toString()));
        stats.setSelected(Boolean.parseBoolean(settings.get("run.stats", "false")));
        trace.setSelected(Boolean.parseBoolean(settings.get("run.trace", "false")));
        network.setSelected(Boolean.parseBoolean(settings.get("run.network", "true")));
        scenario.setText(settings.get("run.scenario", ""));
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
}
