package dev.weft.app.run;

import dev.weft.app.vm.Settings;
import dev.weft.app.widgets.FileDialogs;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
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
 * <p>This class lays out the form and binds it to a {@link RunViewModel}, which checks, remembers and runs; the UI
 * thread never waits: the model starts and stops the process on threads of its own, and the output lines it queues
 * are appended here ten times a second.
 */
public final class RunPanel {

    /** The most characters kept per output area (the oldest lines go first): a chatty node cannot eat the heap. */
    static final int MAX_CHARS = 400_000;

    private final RunViewModel model;
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
    private final Map<RunRequest.Field, Label> errors = new EnumMap<>(RunRequest.Field.class);
    private final TextField command = new TextField();
    private final Button start = new Button("▶ Start");
    private final Button stop = new Button("■ Stop");
    private final Button openLast = new Button("Open recording");
    private final Label state = new Label();
    private final Label figures = new Label("");
    private final TabPane output = new TabPane();
    private final Map<Long, NodeTab> nodeTabs = new TreeMap<>();
    private final TextArea weftLines = area("weftOutput");
    private final TextArea allLines = area("allOutput");
    private final Timeline drain;

    /** One node's output: stdout above, stderr below. */
    private record NodeTab(Tab tab, TextArea out, TextArea err) {
    }

    public RunPanel(Settings settings, Consumer<Path> openRecording, boolean linux) {
        this(new RunViewModel(settings, Platform::runLater, openRecording, linux), linux);
    }

    /** The view of {@code model}: it lays out, binds and appends output; checking and running are the model's. */
    public RunPanel(RunViewModel model, boolean linux) {
        this.model = model;
        this.linux = linux;
        root.getStyleClass().add("run-panel");
        root.setId("runPanel");
        strategy.getItems().addAll("random", "rr");
        strategy.setId("strategy");
        stats.setId("stats");
        openWhenDone.setId("openWhenDone");
        root.setTop(form());
        root.setCenter(outputArea());
        program.textProperty().bindBidirectional(model.program);
        arguments.textProperty().bindBidirectional(model.arguments);
        nodes.textProperty().bindBidirectional(model.nodes);
        net.textProperty().bindBidirectional(model.net);
        seed.textProperty().bindBidirectional(model.seed);
        strategy.valueProperty().bindBidirectional(model.strategy);
        window.textProperty().bindBidirectional(model.windowNs);
        watchdog.textProperty().bindBidirectional(model.watchdog);
        env.textProperty().bindBidirectional(model.env);
        record.textProperty().bindBidirectional(model.record);
        scenario.textProperty().bindBidirectional(model.scenario);
        stats.selectedProperty().bindBidirectional(model.stats);
        trace.selectedProperty().bindBidirectional(model.trace);
        network.selectedProperty().bindBidirectional(model.network);
        openWhenDone.selectedProperty().bindBidirectional(model.openWhenDone);
        followLive.selectedProperty().bindBidirectional(model.followLive);
        // without a network there is no broker: no nodes, recording, watchdog or window
        for (TextField f : new TextField[] {window, watchdog, record, scenario}) f.disableProperty().bind(network.selectedProperty().not());
        for (TextField f : new TextField[] {nodes, net}) f.disableProperty().bind(network.selectedProperty().not().or(model.fromScenario()));
        for (TextField f : new TextField[] {program, arguments, seed}) f.disableProperty().bind(model.fromScenario());
        network.setId("network");
        network.setTooltip(new Tooltip("off: one process under the shim, no broker and no recording (its trace and stats show in \"program\")"));
        trace.setId("trace");
        model.problems().addListener((o, was, now) -> showProblems(now));
        showProblems(model.problems().get());
        command.textProperty().bind(model.commandLine());
        start.disableProperty().bind(model.canStart().not());
        state.textProperty().bind(model.state());
        figures.textProperty().bind(model.figures());
        drain = new Timeline(new KeyFrame(Duration.millis(100), e -> drainLines()));
        drain.setCycleCount(Timeline.INDEFINITE);
        model.running().addListener((o, was, now) -> {
            if (now) {
                clearOutput();
                drain.play();
            } else {
                drainLines();
                drain.stop();
            }
        });
    }

    public RunViewModel model() { return model; }
    public Node node() { return root; }

    /**
     * Where the workbench can follow a recording as it is written: then the panel offers "follow it live" and hands
     * the recording over as soon as its file exists (instead of opening it when the run ends).
     */
    public void setFollowRecording(Consumer<Path> follow) {
        model.setFollowRecording(follow);
        followLive.setVisible(follow != null);
    }
    public ReadOnlyBooleanProperty runningProperty() { return model.running(); }
    /** weft run's exit status once the last run ended; -1 before. */
    public ReadOnlyIntegerProperty exitStatusProperty() { return model.exitStatus(); }
    public ReadOnlyObjectProperty<Path> lastRecordingProperty() { return model.lastRecording(); }
    public ReadOnlyObjectProperty<LogTail.Counts> countsProperty() { return model.counts(); }
    /** The text shown in a node's stdout (or stderr) area; empty if the node printed nothing. */
    public String nodeOutput(long node, boolean stderr) {
        NodeTab t = nodeTabs.get(node);
        return t == null ? "" : (stderr ? t.err : t.out).getText();
    }
    public String weftOutput() { return weftLines.getText(); }
    public RunRequest request() { return model.request(); }
    public void fill(RunRequest r) { model.fill(r); }
    public void start() { model.start(); }
    public void stop() { model.stop(); }

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
        browse.setOnAction(e -> FileDialogs.open(root, "Program to run on every node").ifPresent(f -> model.program.set(f.getPath())));
        Button saveAs = new Button("…");
        saveAs.setTooltip(new Tooltip("choose where the recording goes"));
        saveAs.setOnAction(e -> FileDialogs.save(root, "Record the run to",
                new FileChooser.ExtensionFilter("weft-log recordings", "*.weftlog")).ifPresent(f -> model.record.set(f.getPath())));
        Button nextSeed = new Button("+1");
        nextSeed.setId("nextSeed");
        nextSeed.setTooltip(new Tooltip("the seed after this one (and a recording name to match)"));
        nextSeed.setOnAction(e -> model.nextSeed());
        int row = 0;
        row = row(g, row, "Program", withButton(program, browse), RunRequest.Field.PROGRAM, "Seed", withButton(seed, nextSeed), RunRequest.Field.SEED);
        row = row(g, row, "Arguments", arguments, RunRequest.Field.COMMAND, "Nodes", nodes, RunRequest.Field.NODES);
        row = row(g, row, "Net", net, RunRequest.Field.NET, "Strategy", strategy, null);
        row = row(g, row, "Variables", env, RunRequest.Field.ENV, "Window (ns)", window, RunRequest.Field.WINDOW);
        row = row(g, row, "Record to", withButton(record, saveAs), RunRequest.Field.RECORD, "Watchdog (s)", watchdog, RunRequest.Field.WATCHDOG);
        Button chooseScenario = new Button("…");
        chooseScenario.setTooltip(new Tooltip("choose a scenario file"));
        chooseScenario.setOnAction(e -> FileDialogs.open(root, "Scenario (nodes, network, seed and timed faults)",
                new FileChooser.ExtensionFilter("scenarios", "*.json")).ifPresent(f -> model.scenario.set(f.getPath())));
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
        start.setOnAction(e -> model.start());
        stop.setId("stopRun");
        stop.setOnAction(e -> model.stop());
        openLast.setId("openRecording");
        openLast.setOnAction(e -> model.openLastRecording());
        openLast.disableProperty().bind(model.lastRecording().isNull().or(model.running()));
        stop.disableProperty().bind(model.running().not());
        state.setId("runState");
        figures.setId("runFigures");
        figures.getStyleClass().add("run-figures");
        followLive.setId("followLive");
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

    /** Shows each problem under its field (the model's, which Start also obeys). */
    private void showProblems(Map<RunRequest.Field, String> p) {
        errors.forEach((f, l) -> l.setText(p.getOrDefault(f, "")));
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

    // ---- output ---------------------------------------------------------------------------------

    private Node outputArea() {
        output.setId("runOutput");
        output.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        output.getTabs().addAll(new Tab("all", allLines), new Tab("weft", weftLines));
        VBox.setVgrow(output, Priority.ALWAYS);
        return output;
    }

    private void clearOutput() {
        allLines.clear();
        weftLines.clear();
        nodeTabs.clear();
        output.getTabs().removeIf(t -> t.getUserData() != null);
    }

    /** Appends the queued lines, grouped per area (one append per area per drain). */
    private void drainLines() {
        Map<TextArea, StringBuilder> batches = new java.util.LinkedHashMap<>();
        boolean singleProcess = model.singleProcess().get();
        for (RunViewModel.Line l : model.takeLines()) {
            TextArea target;
            String prefix;
            if (l.node() < 0) {
                target = weftLines;
                prefix = "[weft] ";
            } else {
                NodeTab t = nodeTab(l.node(), singleProcess);
                target = l.stderr() ? t.err : t.out;
                prefix = (singleProcess ? "[program" : "[n" + l.node()) + (l.stderr() ? " err] " : "] ");
            }
            batches.computeIfAbsent(target, k -> new StringBuilder()).append(l.text()).append('\n');
            batches.computeIfAbsent(allLines, k -> new StringBuilder()).append(prefix).append(l.text()).append('\n');
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

    private NodeTab nodeTab(long node, boolean singleProcess) {
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
}
