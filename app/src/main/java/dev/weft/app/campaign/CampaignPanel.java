package dev.weft.app.campaign;

import dev.weft.app.widgets.TableChrome;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.Function;
import dev.weft.app.widgets.FileDialogs;
import dev.weft.app.widgets.PanelFrame;
import dev.weft.app.widgets.ResultTables;
import javafx.application.Platform;
import javafx.collections.transformation.SortedList;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.chart.CategoryAxis;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.StackedBarChart;
import javafx.scene.chart.XYChart;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The campaign results view: open a {@code weft campaign} output folder and see its matrix — per cell (fix level)
 * the runs in each verdict bucket as a stacked bar chart and a sortable table — and every run worth a look
 * (violations with their class, discards, errors, kept passing runs) in a sortable table; a double-click opens the
 * run's kept recording in a tab of the main window. The folder is read off the UI thread.
 */
public final class CampaignPanel {

    private final CampaignViewModel model;
    private final BorderPane root;
    private final TextField folder = new TextField();
    private final Label summary = new Label();
    private final TableView<CampaignResults.Cell> cells = new TableView<>();
    private final TableView<CampaignResults.Hit> hits = new TableView<>();
    private final StackedBarChart<String, Number> chart = new StackedBarChart<>(new CategoryAxis(), new NumberAxis());
    private final ComboBox<String> verdictFilter = new ComboBox<>();
    private final Button openRecordingButton = new Button("Open recording");

    public CampaignPanel(Consumer<Path> openRecording) {
        this(openRecording, (recording, invariant) -> openRecording.accept(recording));
    }

    /**
     * openAtFinding opens a run's recording on the finding of the invariant its checker named (the hit's class, e.g.
     * "AtLeastOneRing"), so a double-click lands on the ring, not on the recording's first fifo violation.
     */
    public CampaignPanel(Consumer<Path> openRecording, java.util.function.BiConsumer<Path, String> openAtFinding) {
        this(new CampaignViewModel(Platform::runLater, openAtFinding));
    }

    /** The view of {@code model}: it lays out and binds; reading and filtering are the model's. */
    public CampaignPanel(CampaignViewModel model) {
        this.model = model;
        root = PanelFrame.of("campaignPanel", header(), left(), right(), 0.44);
        model.results().addListener((o, was, now) -> drawChart(now));
    }

    public CampaignViewModel model() { return model; }
    public Node node() { return root; }
    public javafx.beans.property.ReadOnlyObjectProperty<CampaignResults> resultsProperty() { return model.results(); }
    public TableView<CampaignResults.Cell> cellTable() { return cells; }
    public TableView<CampaignResults.Hit> hitTable() { return hits; }
    public StackedBarChart<String, Number> chart() { return chart; }
    public String summaryText() { return summary.getText(); }
    /** Shows only runs of one verdict ("all" for every one). */
    public void filterVerdict(String verdict) { model.verdictFilter.set(verdict); }

    /** Reads {@code dir} in the background and shows it (or the reason it cannot). */
    public void open(Path dir) { model.open(dir); }

    private Node header() {
        folder.setId("campaignFolder");
        folder.setPromptText("a campaign output folder: type or paste its path and press Enter, or Open folder…");
        folder.textProperty().bindBidirectional(model.folder);
        folder.setOnAction(e -> model.reload());
        Button open = new Button("Open folder…");
        open.setId("openCampaign");
        open.setOnAction(e -> choose());
        Button reload = new Button("Reload");
        reload.setTooltip(new Tooltip("read the folder again (a resumed or merged campaign rewrites its report)"));
        reload.setOnAction(e -> model.reload());
        HBox h = new HBox(6, new Label("Campaign"), folder, open, reload);
        HBox.setHgrow(folder, Priority.ALWAYS);
        h.setAlignment(Pos.CENTER_LEFT);
        summary.setId("campaignSummary");
        summary.textProperty().bind(model.summary());
        summary.setWrapText(true);
        VBox v = new VBox(6, h, summary);
        v.setPadding(new Insets(8));
        return v;
    }

    private Node left() {
        ResultTables.prepare(cells, "campaignCells", "no campaign open");
        cells.getColumns().add(col("cell", 130, CampaignResults.Cell::name));
        cells.getColumns().add(col("runs", 45, CampaignResults.Cell::done));
        cells.getColumns().add(col("OK", 40, CampaignResults.Cell::ok));
        cells.getColumns().add(col("VIOLATION", 85, CampaignResults.Cell::violation));
        cells.getColumns().add(col("DISCARD", 75, CampaignResults.Cell::discard));
        cells.getColumns().add(col("ERROR", 60, CampaignResults.Cell::error));
        TableColumn<CampaignResults.Cell, Double> rate = ResultTables.column("rate", 65, 60, CampaignResults.Cell::violationRate);
        rate.setCellFactory(c -> new javafx.scene.control.TableCell<>() {
            @Override protected void updateItem(Double v, boolean empty) {
                super.updateItem(v, empty);
                setText(empty || v == null ? null : String.format(Locale.ROOT, "%.1f %%", v * 100));
            }
        });
        cells.getColumns().add(rate);
        TableChrome.standard(cells);
        cells.setItems(model.cells());
        cells.getSelectionModel().selectedItemProperty().addListener((o, a, c) -> model.selectedCell.set(c));
        model.selectedCell.addListener((o, a, c) -> {
            if (c == null) cells.getSelectionModel().clearSelection();
        });
        chart.setId("campaignChart");
        chart.setTitle("runs per verdict, per cell");
        chart.setAnimated(false);
        ((NumberAxis) chart.getYAxis()).setLabel("runs");
        VBox v = new VBox(6, cells, chart);
        VBox.setVgrow(chart, Priority.ALWAYS);
        cells.setPrefHeight(180);
        v.setPadding(new Insets(0, 0, 8, 8));
        return v;
    }

    private Node right() {
        ResultTables.prepare(hits, "campaignHits", "no violations, discards, errors or kept recordings");
        hits.getColumns().add(col("verdict", 90, CampaignResults.Hit::verdict));
        hits.getColumns().add(col("cell", 115, CampaignResults.Hit::cell));
        TableColumn<CampaignResults.Hit, Long> seed = ResultTables.column("seed", 60, 55, CampaignResults.Hit::seed);
        seed.setComparator(Long::compareUnsigned);
        hits.getColumns().add(seed);
        hits.getColumns().add(col("class", 220, CampaignResults.Hit::violationClass));
        hits.getColumns().add(col("checker said", 260, CampaignResults.Hit::identity));
        hits.getColumns().add(col("recording", 95, h -> h.recording() == null ? "" : h.recording().getFileName().toString()));
        hits.setRowFactory(tv -> ResultTables.rowOpeningOnDoubleClick(model::openRun));
        TableChrome.standard(hits);
        // the model's order is the report's; the table's sort order re-sorts it as the model refilters
        SortedList<CampaignResults.Hit> sorted = new SortedList<>(model.hits());
        sorted.comparatorProperty().bind(hits.comparatorProperty());
        hits.setItems(sorted);
        verdictFilter.getItems().addAll(CampaignViewModel.VERDICTS);
        verdictFilter.setId("campaignVerdictFilter");
        verdictFilter.valueProperty().bindBidirectional(model.verdictFilter);
        openRecordingButton.setId("openCampaignRecording");
        openRecordingButton.disableProperty().bind(javafx.beans.binding.Bindings.createBooleanBinding(() -> {
            CampaignResults.Hit h = hits.getSelectionModel().getSelectedItem();
            return h == null || h.recording() == null;
        }, hits.getSelectionModel().selectedItemProperty()));
        openRecordingButton.setOnAction(e -> model.openRun(hits.getSelectionModel().getSelectedItem()));
        Label hint = new Label("double-click a run to open its recording · select a cell to see only its runs");
        hint.setMinWidth(0);
        Label verdictLabel = new Label("verdict");
        for (javafx.scene.layout.Region n : new javafx.scene.layout.Region[] {verdictLabel, verdictFilter, openRecordingButton}) {
            n.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        }
        HBox actions = new HBox(8, verdictLabel, verdictFilter, openRecordingButton, hint);
        actions.setAlignment(Pos.CENTER_LEFT);
        Label details = ResultTables.selectionDetails(hits, "campaignHitDetails", CampaignViewModel::details);
        VBox v = new VBox(6, actions, hits, details);
        VBox.setVgrow(hits, Priority.ALWAYS);
        v.setPadding(new Insets(0, 8, 8, 0));
        return v;
    }

    /** The stacked bars of the campaign open (none when there is none). */
    private void drawChart(CampaignResults r) {
        chart.getData().clear();
        if (r == null) return;
        for (String bucket : new String[] {"OK", "VIOLATION", "DISCARD", "ERROR"}) {
            XYChart.Series<String, Number> s = new XYChart.Series<>();
            s.setName(bucket);
            for (CampaignResults.Cell c : r.cells()) {
                long n = switch (bucket) {
                    case "OK" -> c.ok();
                    case "VIOLATION" -> c.violation();
                    case "DISCARD" -> c.discard();
                    default -> c.error();
                };
                s.getData().add(new XYChart.Data<>(c.name(), n));
            }
            chart.getData().add(s);
        }
        colour();
    }

    /** Fixed colours per bucket (the default palette would give VIOLATION whatever colour comes second). */
    private void colour() {
        String[] colours = {"#8bc34a", "#e53935", "#9e9e9e", "#ff9800"};
        for (int i = 0; i < chart.getData().size(); i++) {
            for (XYChart.Data<String, Number> d : chart.getData().get(i).getData()) {
                if (d.getNode() != null) d.getNode().setStyle("-fx-bar-fill: " + colours[i] + ";");
            }
        }
        chart.applyCss();
        for (Node n : chart.lookupAll(".chart-legend-item-symbol")) {
            for (int i = 0; i < colours.length; i++) {
                if (n.getStyleClass().contains("default-color" + i)) n.setStyle("-fx-background-color: " + colours[i] + ";");
            }
        }
    }

    private void choose() {
        FileDialogs.folder(root, "Open a campaign output folder").ifPresent(f -> open(f.toPath()));
    }

    private static <S, T> TableColumn<S, T> col(String name, double width, Function<S, T> value) {
        return ResultTables.column(name, width, Math.min(width, 95), value);
    }
}
