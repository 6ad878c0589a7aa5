package dev.weft.app.fuzz;

import dev.weft.app.widgets.TableChrome;
import dev.weft.app.vm.Settings;
import dev.weft.app.widgets.FileDialogs;
import dev.weft.app.widgets.PanelFrame;
import dev.weft.app.widgets.ResultTables;
import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
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

    private final Settings settings;
    private final Consumer<Path> openRecording;
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
    private final Label progress = new Label("not started");
    private final TableView<FuzzSession.Finding> table = new TableView<>();
    private final TextArea failingSeeds = new TextArea();
    private final BarChart<String, Number> perRange = new BarChart<>(new CategoryAxis(), new NumberAxis());
    private final BarChart<String, Number> ratios = new BarChart<>(new CategoryAxis(), new NumberAxis());
    private final BooleanProperty running = new SimpleBooleanProperty(false);
    private final ReadOnlyObjectWrapper<FuzzSession.Result> result = new ReadOnlyObjectWrapper<>();
    private final ObjectProperty<FuzzConfig> config = new SimpleObjectProperty<>();
    private volatile FuzzSession session;

    public FuzzPanel(Settings settings, Consumer<Path> openRecording) {
        this.settings = settings;
        this.openRecording = openRecording;
        root = PanelFrame.of("fuzzPanel", controls(), editorPane(), resultsPane(), 0.36);
        editor.textProperty().addListener((o, a, b) -> validate());
        for (TextField f : new TextField[] {seeds, jobs, outDir}) f.textProperty().addListener((o, a, b) -> validate());
        String last = settings.get("fuzz.config", "");
        if (!last.isEmpty() && Files.isRegularFile(Path.of(last))) load(Path.of(last));
        else validate();
    }

    public Node node() { return root; }
    public BooleanProperty runningProperty() { return running; }
    /** The last finished run's result (null before one finished, or after a cancel). */
    public javafx.beans.property.ReadOnlyObjectProperty<FuzzSession.Result> resultProperty() { return result.getReadOnlyProperty(); }
    public TableView<FuzzSession.Finding> table() { return table; }
    public String progressText() { return progress.getText(); }
    public double progressFraction() { return bar.getProgress(); }
    public String configError() { return configError.getText(); }
    public boolean canStart() { return !start.isDisabled(); }
    public String failingSeedsText() { return failingSeeds.getText(); }
    public BarChart<String, Number> perRangeChart() { return perRange; }

    /** Loads a config file into the editor; the output folder defaults to its out_dir beside it. */
    public void load(Path file) {
        try {
            // bounded like weft fuzz's own read: /dev/zero or a huge file is a message, not a frozen window
            String text = new String(dev.weft.io.BoundedFiles.read(file, dev.weft.fuzz.FuzzConfigLoader.MAX_CONFIG_BYTES),
                    StandardCharsets.UTF_8);
            configPath.setText(file.toAbsolutePath().toString());
            editor.setText(text);
            validate();
            FuzzConfig c = config.get();
            outDir.setText(defaultOutDir(file, c).toString());
            settings.put("fuzz.config", file.toAbsolutePath().toString());
        } catch (IOException e) {
            configError.setText("cannot read " + file + ": " + dev.weft.text.OsErrorText.of(e));
        }
    }

    /**
     * Where a config's reproducers go unless the form says otherwise: its out_dir when that is absolute, otherwise a
     * folder of its own under ~/weft-fuzz named after the config ("sample-weft-fuzz-out"), never beside the config:
     * a config read from the source tree (examples/) must not fill the source tree.
     */
    static Path defaultOutDir(Path config, FuzzConfig c) {
        String out = c != null ? c.outDir() : FuzzConfig.DEFAULT_OUT_DIR;
        if (Path.of(out).isAbsolute()) return Path.of(out).normalize();
        String stem = config.getFileName().toString().replaceFirst("\\.json$", "");
        return Path.of(System.getProperty("user.home"), "weft-fuzz", stem + "-" + Path.of(out).getFileName()).normalize();
    }

    /** Overrides: {@code START:COUNT} (empty: the config's), jobs (empty: the config's), the output folder. */
    public void setOptions(String seedRange, String jobCount, Path out) {
        seeds.setText(seedRange);
        jobs.setText(jobCount);
        outDir.setText(out.toString());
    }

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
        start.setOnAction(e -> start());
        cancel.setId("cancelFuzz");
        cancel.setOnAction(e -> cancel());
        cancel.disableProperty().bind(running.not());
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
        table.getColumns().add(column("ratio", 60, f -> ratio(f)));
        table.getColumns().add(column("reproducer", 200, f -> f.reproducer() != null
                ? f.reproducer().getFileName().toString() : f.reproError() == null ? "" : "✗ " + f.reproError()));
        TableChrome.standard(table);
        table.setRowFactory(tv -> {
            TableRow<FuzzSession.Finding> row = ResultTables.rowOpeningOnDoubleClick(this::open);
            row.itemProperty().addListener((o, a, f) -> row.setTooltip(f == null ? null : new Tooltip(f.firstMessage()
                    + "\nseeds: " + seedList(f.seeds(), 40) + "\nshrink: " + f.executions() + " executions"
                    + (f.budgetExhausted() ? " (budget exhausted)" : ""))));
            return row;
        });
        openRepro.setId("openReproducer");
        openRepro.disableProperty().bind(table.getSelectionModel().selectedItemProperty().isNull());
        openRepro.setOnAction(e -> open(table.getSelectionModel().getSelectedItem()));
        Label hint = new Label("double-click a row to open its reproducer in a new tab");
        HBox actions = new HBox(8, openRepro, hint);
        actions.setAlignment(Pos.CENTER_LEFT);
        Label details = ResultTables.selectionDetails(table, "fuzzFindingDetails", f -> f.violation()
                + "\nfirst seen: " + f.firstMessage() + "\nseeds: " + seedList(f.seeds(), 30)
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

    /** Shrunk size as a percentage of the original, one decimal (a string that sorts as the number does). */
    private static String ratio(FuzzSession.Finding f) {
        return f.opsBefore() == 0 ? "–" : String.format(Locale.ROOT, "%5.1f %%", 100.0 * f.opsAfter() / f.opsBefore());
    }

    private static String seedList(List<Long> s, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.size() && i < max; i++) sb.append(i == 0 ? "" : ", ").append(Long.toUnsignedString(s.get(i)));
        if (s.size() > max) sb.append(", … (").append(s.size()).append(" in all)");
        return sb.toString();
    }

    // ---- validation and running -----------------------------------------------------------------

    private void validate() {
        try {
            if (editor.getText().isBlank()) {
                // The loader's words for no input ("EOF while parsing … column 0") say nothing to a person.
                config.set(null);
                configError.setText("✗ the config is empty: open one (Open config…) or write one here, e.g. examples/fuzz/sample.json");
            } else {
                config.set(FuzzSession.parse(editor.getText()));
                configError.setText("");
            }
        } catch (FuzzConfigException e) {
            config.set(null);
            configError.setText("✗ " + e.getMessage());
        }
        String opt = optionsProblem();
        optionsError.setText(opt == null ? "" : "✗ " + opt);
        start.setDisable(running.get() || config.get() == null || opt != null);
    }

    private String optionsProblem() {
        String s = seeds.getText().strip();
        if (!s.isEmpty() && !s.matches("[0-9]{1,19}:[0-9]{1,19}")) return "seeds \"" + s + "\": expected START:COUNT, e.g. 0:1000";
        String j = jobs.getText().strip();
        if (!j.isEmpty() && !j.matches("[0-9]{1,3}")) return "jobs \"" + j + "\": expected a count";
        if (outDir.getText().isBlank()) return "an output folder for the reproducers";
        return null;
    }

    /** Starts a run of the editor's config (no-op while one runs or the form has a problem). */
    public void start() {
        if (!canStart()) return;
        FuzzConfig c = config.get();
        Long seedStart = null;
        Long seedCount = null;
        String s = seeds.getText().strip();
        if (!s.isEmpty()) {
            seedStart = Long.parseUnsignedLong(s.substring(0, s.indexOf(':')));
            seedCount = Long.parseUnsignedLong(s.substring(s.indexOf(':') + 1));
        }
        Long j = jobs.getText().isBlank() ? null : Long.parseLong(jobs.getText().strip());
        Path out = Path.of(outDir.getText().strip()).toAbsolutePath();
        running.set(true);
        start.setDisable(true);
        result.set(null);
        table.getItems().clear();
        failingSeeds.clear();
        perRange.getData().clear();
        ratios.getData().clear();
        bar.setProgress(0);
        progress.setText("starting…");
        long t0 = System.nanoTime();
        FuzzSession fs = new FuzzSession();
        session = fs;
        fs.start(c, out, seedStart, seedCount, j, new FuzzSession.Listener() {
            // called per seed from the sweep's workers: keep only the latest figures and have at most one update
            // waiting on the UI thread, however fast seeds are done
            private final java.util.concurrent.atomic.AtomicReference<long[]> latest = new java.util.concurrent.atomic.AtomicReference<>();

            @Override public void sweeping(long tested, long queued, long failing) {
                if (latest.getAndSet(new long[] {tested, queued, failing}) != null) return;
                Platform.runLater(() -> {
                    long[] v = latest.getAndSet(null);
                    if (!running.get() || v == null || !progress.getText().matches("starting…|sweeping.*")) return;
                    bar.setProgress(v[1] == 0 ? 1 : (double) v[0] / v[1]);
                    progress.setText(String.format(Locale.ROOT, "sweeping: %,d / %,d seeds · %,d failing · %s",
                            v[0], v[1], v[2], elapsed(t0)));
                });
            }

            @Override public void swept(long tested, long failing, int distinct) {
                Platform.runLater(() -> {
                    bar.setProgress(distinct == 0 ? 1 : 0);
                    progress.setText(String.format(Locale.ROOT, "swept %,d seeds · %,d failing · %d distinct violation(s)%s",
                            tested, failing, distinct, distinct > 0 ? " · shrinking…" : ""));
                });
            }

            @Override public void shrunk(int done, int of) {
                Platform.runLater(() -> {
                    bar.setProgress(of == 0 ? 1 : (double) done / of);
                    progress.setText("shrinking: " + done + " / " + of + " violation(s) shrunk · " + elapsed(t0));
                });
            }

            @Override public void finished(FuzzSession.Result r, String message) {
                Platform.runLater(() -> ended(r, message));
            }
        });
    }

    /** Stops the sweep at its next seed; the run ends as cancelled and writes nothing more. */
    public void cancel() {
        FuzzSession s = session;
        if (s != null && running.get()) {
            progress.setText("cancelling…");
            s.cancel();
        }
    }

    private void ended(FuzzSession.Result r, String message) {
        running.set(false);
        session = null;
        if (r == null) {
            bar.setProgress(0);
            progress.setText(message);
        } else {
            bar.setProgress(1);
            show(r);
            progress.setText(String.format(Locale.ROOT, "done: %,d seeds swept (%s to %s) · %,d failing · %d distinct violation(s)%s%s",
                    r.tested(), Long.toUnsignedString(r.seedStart()), Long.toUnsignedString(r.seedStart() + r.seedCount() - 1),
                    r.failing(), r.findings().size(), r.budgetHit() ? " · time budget hit" : "",
                    message == null ? " · report.txt in " + r.outDir() : " · " + message));
        }
        result.set(r);
        validate();
    }

    private void show(FuzzSession.Result r) {
        table.getItems().setAll(r.findings());
        if (!r.findings().isEmpty()) table.getSelectionModel().select(0);
        failingSeeds.setText(r.failingSeeds().isEmpty() ? "none" : seedList(r.failingSeeds(), Integer.MAX_VALUE));
        perRange.getData().setAll(List.of(FuzzCharts.perRange(r)));
        ratios.getData().setAll(List.of(FuzzCharts.ratios(r)));
        // a few violations must not become wall-wide bars
        ratios.setCategoryGap(Math.max(10, 300.0 / Math.max(1, r.findings().size())));
    }

    private void open(FuzzSession.Finding f) {
        if (f != null && f.reproducer() != null) openRecording.accept(f.reproducer());
    }

    private static String elapsed(long t0) {
        return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - t0) / 1e9);
    }

    private void chooseConfig() {
        FileDialogs.open(root, "Open a fuzz config", new FileChooser.ExtensionFilter("fuzz configs (JSON)", "*.json"),
                new FileChooser.ExtensionFilter("All files", "*")).ifPresent(f -> load(f.toPath()));
    }

    private void saveConfig() {
        String p = configPath.getText();
        Path target;
        if (p.isBlank()) {
            Optional<File> f = FileDialogs.save(root, "Save the fuzz config");
            if (f.isEmpty()) return;
            target = f.get().toPath();
        } else {
            target = Path.of(p);
        }
        try {
            Files.writeString(target, editor.getText(), StandardCharsets.UTF_8);
            configPath.setText(target.toAbsolutePath().toString());
            settings.put("fuzz.config", target.toAbsolutePath().toString());
        } catch (IOException e) {
            configError.setText("✗ cannot write " + target + ": " + e.getMessage());
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
