package dev.weft.app.shrink;

import dev.weft.app.widgets.FileDialogs;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.StringProperty;
import javafx.collections.ListChangeListener;
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
 * Tools ▸ Shrink…: the view of a {@link ShrinkViewModel} — a form (campaign config, seed, cells, jobs, output
 * folder) that runs {@code weft shrink} in a child process, its progress ("run 7: 3 deviation(s) of 41 left"), its
 * lines and Cancel; the minimal recording opens — with its plan, so the Plan tab lists the deviations that matter —
 * when it is done. This class only lays out controls and binds them; what they show and do is the view model's.
 */
public final class ShrinkPanel {

    private final ShrinkViewModel model;
    private final BorderPane root = new BorderPane();
    private final Map<ShrinkRequest.Field, Label> problemLabels = new EnumMap<>(ShrinkRequest.Field.class);
    private final Button start = new Button("Shrink");
    private final Button cancel = new Button("Cancel");
    private final ProgressBar bar = new ProgressBar(0);
    private final Label state = new Label();
    private final TextArea lines = new TextArea();

    public ShrinkPanel(Consumer<Path> openRecording) {
        this(new ShrinkViewModel(Platform::runLater, openRecording));
    }

    public ShrinkPanel(ShrinkViewModel model) {
        this.model = model;
        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(2);
        form.setPadding(new Insets(10));
        int row = 0;
        Button browseConfig = new Button("Browse…");
        browseConfig.setOnAction(e -> FileDialogs.open(root, "Campaign config",
                new FileChooser.ExtensionFilter("campaign configs", "*.json", "*.toml"),
                new FileChooser.ExtensionFilter("All files", "*")).ifPresent(f -> model.config.set(f.getPath())));
        Button browseOut = new Button("Browse…");
        browseOut.setOnAction(e -> FileDialogs.folder(root, "Output folder (new, or without a shrink's files)")
                .ifPresent(f -> model.out.set(f.getPath())));
        row = field(form, row, "Campaign config", "shrinkConfig", model.config, browseConfig, ShrinkRequest.Field.CONFIG, "campaign.json");
        row = field(form, row, "Seed", "shrinkSeed", model.seed, null, ShrinkRequest.Field.SEED, "the failing seed, e.g. 3");
        row = field(form, row, "Cell", "shrinkCells", model.cells, null, ShrinkRequest.Field.CELLS, "KEY=VALUE … (optional), e.g. CHORD_FIX=0");
        row = field(form, row, "Jobs", "shrinkJobs", model.jobs, null, ShrinkRequest.Field.JOBS, "parallel runs (optional)");
        row = field(form, row, "Output folder", "shrinkOut", model.out, browseOut, ShrinkRequest.Field.OUT, "a new folder");
        Label command = new Label();
        command.setId("shrinkCommand");
        command.getStyleClass().add("command-line");
        command.setWrapText(true);
        command.textProperty().bind(model.commandLine());
        form.add(command, 0, row, 3, 1);
        model.problems().addListener((o, was, now) -> showProblems(now));
        showProblems(model.problems().get());

        start.setId("shrinkStart");
        start.setDefaultButton(true);
        start.setOnAction(e -> model.start());
        start.disableProperty().bind(model.canStart().not());
        cancel.setId("shrinkCancel");
        cancel.setOnAction(e -> model.cancel());
        cancel.disableProperty().bind(model.running().not().or(model.cancelling()));
        bar.setId("shrinkProgress");
        bar.setPrefWidth(220);
        bar.progressProperty().bind(model.progress());
        state.setId("shrinkState");
        state.setMaxWidth(Double.MAX_VALUE);
        state.textProperty().bind(model.state());
        HBox.setHgrow(state, Priority.ALWAYS);
        HBox actions = new HBox(8, start, cancel, bar, state);
        actions.setAlignment(Pos.CENTER_LEFT);
        actions.setPadding(new Insets(0, 10, 6, 10));
        lines.setId("shrinkLines");
        lines.setEditable(false);
        lines.getStyleClass().add("node-output");
        // appended as they come (a TextArea re-laid out whole per line would cost a long shrink dearly)
        model.lines().addListener((ListChangeListener<String>) c -> {
            while (c.next()) {
                if (c.wasRemoved()) lines.clear();
                for (String l : c.getAddedSubList()) lines.appendText(l + "\n");
            }
        });
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
    }

    private int field(GridPane form, int row, String name, String id, StringProperty value, Button extra,
            ShrinkRequest.Field field, String prompt) {
        TextField f = new TextField();
        f.setId(id);
        f.setPromptText(prompt);
        f.textProperty().bindBidirectional(value);
        GridPane.setHgrow(f, Priority.ALWAYS);
        form.add(new Label(name), 0, row);
        form.add(f, 1, row);
        if (extra != null) form.add(extra, 2, row);
        Label problem = new Label();
        problem.getStyleClass().add("field-error");
        problem.setId("shrinkProblem" + field.name());
        // always in the layout, a line high: the fields stay put as problems come and go under them
        problem.setMinHeight(16);
        form.add(problem, 1, row + 1);
        problemLabels.put(field, problem);
        return row + 2;
    }

    private void showProblems(Map<ShrinkRequest.Field, String> p) {
        problemLabels.forEach((f, l) -> l.setText(p.getOrDefault(f, "")));
    }

    public ShrinkViewModel model() { return model; }
    public Node node() { return root; }

    // What the tests read and do, as they did before the view model: kept as one-line delegations.
    public ShrinkRequest request() { return model.request(); }
    public void fill(ShrinkRequest r) { model.fill(r); }
    public void start() { model.start(); }
    public void cancel() { model.cancel(); }
    public boolean running() { return model.running().get(); }
    public String stateText() { return state.getText(); }
    public double progress() { return bar.getProgress(); }
    public String linesText() { return lines.getText(); }
    public boolean startDisabled() { return start.isDisabled(); }
}
