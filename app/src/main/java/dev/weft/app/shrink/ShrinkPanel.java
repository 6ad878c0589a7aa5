package dev.weft.app.shrink;

import dev.weft.app.widgets.FileDialogs;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/**
 * Tools ▸ Shrink…: a form (campaign config, seed, cells, jobs, output folder) that runs {@code weft shrink} in a
 * child process ({@link ShrinkSession}), shows its progress ("run 7: 3 deviation(s) of 41 left") and its lines, can
 * be cancelled, and opens the minimal recording — with its plan, so the Plan tab lists the deviations that matter —
 * when it is done. The UI thread only starts, reads and stops; the work is the child's.
 */
public final class ShrinkPanel {

    private final BorderPane root = new BorderPane();
    private final TextField config = new TextField();
    private final TextField seed = new TextField();
    private final TextField cells = new TextField();
    private final TextField jobs = new TextField();
    private final TextField out = new TextField();
    private final Map<ShrinkRequest.Field, Label> problemLabels = new EnumMap<>(ShrinkRequest.Field.class);
    private final Label command = new Label();
    private final Button start = new Button("Shrink");
    private final Button cancel = new Button("Cancel");
    private final ProgressBar bar = new ProgressBar(0);
    private final Label state = new Label("not started");
    private final TextArea lines = new TextArea();
    private final Consumer<Path> openRecording;
    private ShrinkSession session;
    /** From Shrink to the end (the session is known a little after it starts); Cancel before then waits for it. */
    private boolean running;
    private boolean cancelRequested;

    public ShrinkPanel(Consumer<Path> openRecording) {
        this.openRecording = openRecording;
        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(2);
        form.setPadding(new Insets(10));
        int row = 0;
        Button browseConfig = new Button("Browse…");
        browseConfig.setOnAction(e -> FileDialogs.open(root, "Campaign config",
                new FileChooser.ExtensionFilter("campaign configs", "*.json", "*.toml"),
                new FileChooser.ExtensionFilter("All files", "*")).ifPresent(f -> config.setText(f.getPath())));
        Button browseOut = new Button("Browse…");
        browseOut.setOnAction(e -> FileDialogs.folder(root, "Output folder (new, or without a shrink's files)")
                .ifPresent(f -> out.setText(f.getPath())));
        row = field(form, row, "Campaign config", config, browseConfig, ShrinkRequest.Field.CONFIG, "campaign.json");
        row = field(form, row, "Seed", seed, null, ShrinkRequest.Field.SEED, "the failing seed, e.g. 3");
        row = field(form, row, "Cell", cells, null, ShrinkRequest.Field.CELLS, "KEY=VALUE … (optional), e.g. CHORD_FIX=0");
        row = field(form, row, "Jobs", jobs, null, ShrinkRequest.Field.JOBS, "parallel runs (optional)");
        row = field(form, row, "Output folder", out, browseOut, ShrinkRequest.Field.OUT, "a new folder");
        config.setId("shrinkConfig");
        seed.setId("shrinkSeed");
        cells.setId("shrinkCells");
        jobs.setId("shrinkJobs");
        out.setId("shrinkOut");
        command.setId("shrinkCommand");
        command.getStyleClass().add("command-line");
        command.setWrapText(true);
        form.add(command, 0, row, 3, 1);
        for (TextField f : new TextField[] {config, seed, cells, jobs, out}) f.textProperty().addListener(o -> check());

        start.setId("shrinkStart");
        start.setDefaultButton(true);
        start.setOnAction(e -> start());
        cancel.setId("shrinkCancel");
        cancel.setDisable(true);
        cancel.setOnAction(e -> cancel());
        bar.setId("shrinkProgress");
        bar.setPrefWidth(220);
        state.setId("shrinkState");
        state.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(state, Priority.ALWAYS);
        HBox actions = new HBox(8, start, cancel, bar, state);
        actions.setAlignment(Pos.CENTER_LEFT);
        actions.setPadding(new Insets(0, 10, 6, 10));
        lines.setId("shrinkLines");
        lines.setEditable(false);
        lines.getStyleClass().add("node-output");
        Label intro = new Label("Shrinks a failing run of a campaign to the fewest network faults that still make it fail "
                + "(weft shrink, docs/shrinking.md). The minimal recording opens with its plan when it is done.");
        intro.setWrapText(true);
        intro.getStyleClass().add("panel-header");
        intro.setPadding(new Insets(10, 10, 0, 10));
        VBox top = new VBox(intro, form, actions);
        root.setTop(top);
        root.setCenter(lines);
        BorderPane.setMargin(lines, new Insets(0, 10, 10, 10));
        root.setId("shrinkPanel");
        check();
    }

    private int field(GridPane form, int row, String name, TextField f, Button extra, ShrinkRequest.Field id, String prompt) {
        f.setPromptText(prompt);
        GridPane.setHgrow(f, Priority.ALWAYS);
        form.add(new Label(name), 0, row);
        form.add(f, 1, row);
        if (extra != null) form.add(extra, 2, row);
        Label problem = new Label();
        problem.getStyleClass().add("field-error");
        problem.setId("shrinkProblem" + id.name());
        // always in the layout, a line high: the fields stay put as problems come and go under them
        problem.setMinHeight(16);
        form.add(problem, 1, row + 1);
        problemLabels.put(id, problem);
        return row + 2;
    }

    /** The form as a request. */
    public ShrinkRequest request() {
        return new ShrinkRequest(config.getText(), seed.getText(), cells.getText(), jobs.getText(), out.getText());
    }

    /** Fills the form (the tests, and a campaign's failing run). */
    public void fill(ShrinkRequest r) {
        config.setText(r.config());
        seed.setText(r.seed());
        cells.setText(r.cells());
        jobs.setText(r.jobs());
        out.setText(r.out());
    }

    /** Shows each problem under its field; Shrink is possible when there are none and nothing is running. */
    private void check() {
        ShrinkRequest r = request();
        Map<ShrinkRequest.Field, String> p = r.problems();
        problemLabels.forEach((f, l) -> l.setText(p.getOrDefault(f, "")));
        command.setText(p.isEmpty() ? r.commandLine() : "");
        start.setDisable(!p.isEmpty() || running);
    }

    /** Starts weft shrink for the form (no-op when the form has problems or one is running). */
    public void start() {
        ShrinkRequest r = request();
        if (!r.problems().isEmpty() || running) return;
        lines.clear();
        running = true;
        cancelRequested = false;
        bar.setProgress(-1);
        state.setText("starting: " + r.commandLine());
        start.setDisable(true);
        cancel.setDisable(false);
        Thread starter = new Thread(() -> {
            try {
                ShrinkSession s = ShrinkSession.start(r, listener(r));
                Platform.runLater(() -> {
                    if (!running) return;   // it has already ended
                    session = s;
                    if (cancelRequested) cancel();
                });
            } catch (java.io.IOException e) {
                Platform.runLater(() -> ended("✗ cannot start weft shrink: " + e.getMessage(), null));
            }
        }, "weft-shrink-start");
        starter.setDaemon(true);
        starter.start();
    }

    private ShrinkSession.Listener listener(ShrinkRequest r) {
        return new ShrinkSession.Listener() {
            @Override
            public void line(boolean stderr, String text) {
                Platform.runLater(() -> lines.appendText(text + "\n"));
            }

            @Override
            public void progress(long run, long deviations, long of) {
                Platform.runLater(() -> {
                    // the deviations taken away so far, of those the plan started with
                    bar.setProgress(of == 0 ? 1 : (double) (of - deviations) / of);
                    state.setText("run " + run + ": " + deviations + " deviation(s) of " + of + " left");
                });
            }

            @Override
            public void finished(int exitStatus, Path minimalLog, boolean cancelled) {
                Platform.runLater(() -> {
                    if (cancelled) ended("cancelled", null);
                    else if (minimalLog == null) ended("✗ weft shrink exited " + exitStatus + " (see its lines)", null);
                    else ended("done: " + minimalLog + " (exit " + exitStatus + ")", minimalLog);
                });
            }
        };
    }

    private void ended(String text, Path minimalLog) {
        session = null;
        running = false;
        state.setText(text);
        if (bar.getProgress() < 0) bar.setProgress(0);
        if (minimalLog != null) bar.setProgress(1);
        cancel.setDisable(true);
        check();
        if (minimalLog != null) openRecording.accept(minimalLog);
    }

    /** Cancels the running shrink (off the UI thread: stopping waits for the process). */
    public void cancel() {
        ShrinkSession s = session;
        cancelRequested = true;
        cancel.setDisable(true);
        state.setText("cancelling…");
        if (s == null) return;   // not started yet: cancelled as soon as it is
        Thread stopper = new Thread(() -> s.cancel(5), "weft-shrink-cancel");
        stopper.setDaemon(true);
        stopper.start();
    }

    public Node node() { return root; }
    /** The session running now, or null (tests). */
    public ShrinkSession session() { return session; }
    public boolean running() { return running; }
    public String stateText() { return state.getText(); }
    public double progress() { return bar.getProgress(); }
    public String linesText() { return lines.getText(); }
    public boolean startDisabled() { return start.isDisabled(); }
}
