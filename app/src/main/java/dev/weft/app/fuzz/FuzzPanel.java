package dev.weft.app.fuzz;

import dev.weft.app.widgets.TableChrome;
import dev.weft.app.vm.Settings;
import dev.weft.app.widgets.FileDialogs;
import dev.weft.app.widgets.PanelFrame;
import dev.weft.app.widgets.ResultTables;
import java.io.File;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.chart.BarChart;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;

/**
 * The fuzz panel: open or edit a fuzz config (checked as you type by the engine's own loader, the error under the
 * editor), seeds and jobs, Start and Cancel with a determinate bar (seeds swept, then violations shrunk); a sortable
 * table of the distinct violations with their seeds, original and shrunk sizes, and a reproducer that opens in a
 * tab of the main window with a double-click; the failing seeds; charts of violations per seed range and of the
 * shrink ratios. Results come from the finished run only, in the engine's order; the counts shown while sweeping
 * are progress.
 */
public final class FuzzPanel {

    private final FuzzViewModel model;
    private final BorderPane root;
    private final TextField configPath = new TextField();
    private final TextArea editor = new TextArea();
    private final Label configError = errorLabel("fuzzConfigError");
    private final TextField seeds = optionField("fuzzSeeds", "START:COUNT (config's)", 12);
    private final TextField jobs = optionField("fuzzJobs", "config's", 5);
    private final TextField outDir = optionField("fuzzOut", "output folder for reproducers and report.txt", 0);
    private final Label optionsError = errorLabel("fuzzOptionsError");
    private final Button start = new Button("▶ Start");
    private final Button cancel = new Button("■ Cancel");
    private final Button openRepro = new Button("Open reproducer");
    private final ProgressBar bar = new ProgressBar(0);
    private final Label progress = new Label();
    private final TableView<FuzzSession.Finding> table = new TableView<>();
    private final TextArea failingSeeds = new TextArea();
    private final BarChart<String, Number> perRange = new BarChart<>(new CategoryAxis(), new NumberAxis());
    private final BarChart<String, Number> ratios = new BarChart<>(new CategoryAxis(), new NumberAxis());

    public FuzzPanel(Settings settings, Consumer<Path> openRecording) {
        this(new FuzzViewModel(settings, Platform::runLater, openRecording));
    }

    /** The view of {@code model}: it lays out, binds and draws the charts; checking and running are the model's. */
    public FuzzPanel(FuzzViewModel model) {
        this.model = model;
        root = PanelFrame.of("fuzzPanel", controls(), editorPane(), resultsPane(), 0.36);
        configPath.textProperty().bind(model.configPath());
        editor.textProperty().bindBidirectional(model.configText);
        configError.textProperty().bind(model.configError());
        seeds.textProperty().bindBidirectional(model.seeds);
        jobs.textProperty().bindBidirectional(model.jobs);
        outDir.textProperty().bindBidirectional(model.outDir);
        optionsError.textProperty().bind(model.optionsError());
        start.disableProperty().bind(model.canStart().not());
        cancel.disableProperty().bind(model.running().not());
        bar.progressProperty().bind(model.progress());
        progress.textProperty().bind(model.progressText());
        model.running().addListener((o, was, now) -> {
            if (now) show(null);
        });
        model.result().addListener((o, was, now) -> show(now));
    }

    public FuzzViewModel model() { return model; }
    public Node node() { return root; }
    public ReadOnlyBooleanProperty runningProperty() { return model.running(); }
    /** The last finished run's result (null before one finished, or after a cancel). */
    public javafx.beans.property.ReadOnlyObjectProperty<FuzzSession.Result> resultProperty() { return model.result(); }
    public TableView<FuzzSession.Finding> table() { return table; }
    public String progressText() { return progress.getText(); }
    public double progressFraction() { return bar.getProgress(); }
    public String configError() { return configError.getText(); }
    public boolean canStart() { return !start.isDisabled(); }
    public String failingSeedsText() { return failingSeeds.getText(); }
    public BarChart<String, Number> perRangeChart() { return perRange; }
    public void load(Path file) { model.load(file); }
    public void setOptions(String seedRange, String jobCount, Path out) { model.setOptions(seedRange, jobCount, out); }
    public void start() { model.start(); }
    public void cancel() { model.cancel(); }

    // ---- layout ---------------------------------------------------------------------------------

    private Node controls() {
        configPath.setEditable(false);
        configPath.setId("fuzzConfigPath");
        configPath.setPromptText("a fuzz config (JSON); or type one below");
        Button open = new Button("Open config…");
        open.setOnAction(e -> chooseConfig());
        Button save = new Button("Save");
        save.setTooltip(new Tooltip("write the editor's text to the config file"));
        save.setOnAction(e -> saveConfig());
        HBox file = new HBox(6, new Label("Config"), configPath, open, save);
        HBox.setHgrow(configPath, Priority.ALWAYS);
        file.setAlignment(Pos.CENTER_LEFT);

        start.setId("startFuzz");
        start.setOnAction(e -> model.start());
        cancel.setId("cancelFuzz");
        cancel.setOnAction(e -> model.cancel());
        HBox opts = new HBox(6, new Label("Seeds"), seeds, new Label("Jobs"), jobs, new Label("Output"), outDir, start, cancel);
        HBox.setHgrow(outDir, Priority.ALWAYS);
        opts.setAlignment(Pos.CENTER_LEFT);

        bar.setId("fuzzProgress");
        bar.setPrefWidth(260);
        progress.setId("fuzzProgressText");
        HBox prog = new HBox(8, bar, progress);
        prog.setAlignment(Pos.CENTER_LEFT);
        optionsError.managedProperty().bind(optionsError.textProperty().isNotEmpty());
        VBox v = new VBox(6, file, opts, optionsError, prog);
        v.setPadding(new Insets(8));
        return v;
    }

    private Node editorPane() {
        editor.setId("fuzzConfigEditor");
        editor.setStyle("-fx-font-family: monospace;");
        editor.setWrapText(true);
        configError.setWrapText(true);
        Label h = new Label("Config");
        h.getStyleClass().add("panel-header");
        VBox v = new VBox(4, h, editor, configError);
        VBox.setVgrow(editor, Priority.ALWAYS);
        v.setPadding(new Insets(0, 0, 0, 8));
        return v;
    }

    private Node resultsPane() {
        ResultTables.prepare(table, "fuzzFindings", "no violations yet");
        table.getColumns().add(column("violation", 300, f -> f.violation()));
        table.getColumns().add(column("seeds", 60, f -> f.seeds().size()));
        table.getColumns().add(column("first seed", 80, f -> f.firstSeed()));
        table.getColumns().add(column("ops", 60, f -> f.opsBefore()));
        table.getColumns().add(column("shrunk", 60, f -> f.opsAfter()));
        table.getColumns().add(column("ratio", 60, FuzzViewModel::ratio));
        table.getColumns().add(column("reproducer", 200, f -> f.reproducer() != null
                ? f.reproducer().getFileName().toString() : f.reproError() == null ? "" : "✗ " + f.reproError()));
        TableChrome.standard(table);
        table.setRowFactory(tv -> {
            TableRow<FuzzSession.Finding> row = ResultTables.rowOpeningOnDoubleClick(model::openReproducer);
            row.itemProperty().addListener((o, a, f) -> row.setTooltip(f == null ? null : new Tooltip(f.firstMessage()
                    + "\nseeds: " + FuzzViewModel.seedList(f.seeds(), 40) + "\nshrink: " + f.executions() + " executions"
                    + (f.budgetExhausted() ? " (budget exhausted)" : ""))));
            return row;
        });
        openRepro.setId("openReproducer");
        openRepro.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        openRepro.setOnAction(e -> model.openReproducer(table.getSelectionModel().getSelectedItem()));
        Label hint = new Label("double-click a row to open its reproducer in a new tab");
        HBox actions = new HBox(8, openRepro, hint);
        actions.setAlignment(Pos.CENTER_LEFT);
        Label details = ResultTables.selectionDetails(table, "fuzzFindingDetails", f -> f.violation()
                + "\nfirst seen: " + f.firstMessage() + "\nseeds: " + FuzzViewModel.seedList(f.seeds(), 30)
                + "\nshrunk " + f.opsBefore() + " → " + f.opsAfter() + " ops in " + f.executions() + " executions"
                + (f.budgetExhausted() ? " (budget exhausted)" : "")
                + (f.reproducer() != null ? "\nreproducer: " + f.reproducer() : f.reproError() != null ? "\n✗ " + f.reproError() : ""));
        VBox findings = new VBox(4, table, details, actions);
        VBox.setVgrow(table, Priority.ALWAYS);
        failingSeeds.setEditable(false);
        failingSeeds.setWrapText(true);
        failingSeeds.setId("fuzzFailingSeeds");
        perRange.setTitle("failing seeds per seed range");
        perRange.setLegendVisible(false);
        perRange.setAnimated(false);
        perRange.setId("fuzzPerRange");
        ratios.setTitle("shrunk size, % of the original workload");
        ratios.setLegendVisible(false);
        ratios.setAnimated(false);
        TabPane tabs = new TabPane(new Tab("Violations", findings), new Tab("Failing seeds", failingSeeds),
                new Tab("Charts", new VBox(perRange, ratios)));
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        return tabs;
    }

    private static <T> TableColumn<FuzzSession.Finding, T> column(String name, double width,
            java.util.function.Function<FuzzSession.Finding, T> value) {
        return ResultTables.column(name, width, Math.min(width, 80), value);
    }

    /** A text field of the options row; {@code columns} 0 leaves its preferred width to the row. */
    private static TextField optionField(String id, String prompt, int columns) {
        TextField f = new TextField();
        f.setId(id);
        f.setPromptText(prompt);
        if (columns > 0) f.setPrefColumnCount(columns);
        return f;
    }

    /** The red line under the editor or the options that says what is wrong (empty when nothing is). */
    private static Label errorLabel(String id) {
        Label l = new Label();
        l.setId(id);
        l.setStyle("-fx-text-fill: #c62828;");
        return l;
    }

    // ---- showing a result ----------------------------------------------------------------------

    /** The finished run's findings, failing seeds and charts; a null result (a run starts, or was cancelled) clears them. */
    private void show(FuzzSession.Result r) {
        if (r == null) {
            table.getItems().clear();
            failingSeeds.clear();
            perRange.getData().clear();
            ratios.getData().clear();
            return;
        }
        table.getItems().setAll(r.findings());
        if (!r.findings().isEmpty()) table.getSelectionModel().select(0);
        failingSeeds.setText(FuzzViewModel.failingSeedsText(r));
        perRange.getData().setAll(List.of(FuzzCharts.perRange(r)));
        ratios.getData().setAll(List.of(FuzzCharts.ratios(r)));
        // a few violations must not become wall-wide bars
        ratios.setCategoryGap(Math.max(10, 300.0 / Math.max(1, r.findings().size())));
    }

    private void chooseConfig() {
        FileDialogs.open(root, "Open a fuzz config", new FileChooser.ExtensionFilter("fuzz configs (JSON)", "*.json"),
                new FileChooser.ExtensionFilter("All files", "*")).ifPresent(f -> model.load(f.toPath()));
    }

    private void saveConfig() {
        String p = model.configPath().get();
        if (p.isBlank()) {
            Optional<File> f = FileDialogs.save(root, "Save the fuzz config");
            f.ifPresent(file -> model.save(file.toPath()));
        } else {
            model.save(Path.of(p));
        }
    }

    /** The charts' series, from a finished run only (deterministic: sorted seeds, engine order). */
    static final class FuzzCharts {
        private FuzzCharts() {
        }

        /** Failing seeds counted in ten equal seed ranges of the swept range. */
        static XYChart.Series<String, Number> perRange(FuzzSession.Result r) {
            XYChart.Series<String, Number> s = new XYChart.Series<>();
            long start = r.seedStart();
            long count = Math.max(1, r.seedCount());
            int buckets = (int) Math.min(10, count);
            long width = (count + buckets - 1) / buckets;
            long[] n = new long[buckets];
            for (long seed : r.failingSeeds()) {
                long off = seed - start;
                if (off >= 0 && off < count) n[(int) (off / width)]++;
            }
            for (int i = 0; i < buckets; i++) {
                long lo = start + i * width;
                long hi = Math.min(start + count - 1, lo + width - 1);
                s.getData().add(new XYChart.Data<>(Long.toUnsignedString(lo) + "–" + Long.toUnsignedString(hi), n[i]));
            }
            return s;
        }

        /** Per distinct violation: its shrunk size as a percentage of the original workload. */
        static XYChart.Series<String, Number> ratios(FuzzSession.Result r) {
            XYChart.Series<String, Number> s = new XYChart.Series<>();
            int i = 1;
            for (FuzzSession.Finding f : r.findings()) {
                double pct = f.opsBefore() == 0 ? 0 : 100.0 * f.opsAfter() / f.opsBefore();
                s.getData().add(new XYChart.Data<>("#" + i++ + " " + abbreviate(f.violation()), pct));
            }
            return s;
        }

        private static String abbreviate(String s) {
            return s.length() <= 28 ? s : s.substring(0, 27) + "…";
        }
    }
}
