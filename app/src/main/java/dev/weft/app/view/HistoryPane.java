package dev.weft.app.view;

import dev.weft.app.widgets.TableChrome;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.HistoryLaneViewModel;
import dev.weft.history.Finding;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.geometry.Orientation;

/**
 * The History tab: the verdict, the findings (a click shows a finding's operations and puts the cursor on the
 * recording's op where the last of them was invoked), a lane of operation bars per client in the history's order of
 * instants (red:
 * in a finding; grey to the edge: indeterminate; the cursor's virtual time as a line), and the operations.
 */
final class HistoryPane {

    private static final double ROW = 22;
    private static final double LEFT = 150;

    private final BorderPane root = new BorderPane();
    private final HistoryLaneViewModel vm;
    private final DocumentViewModel doc;
    private final Canvas lane = new Canvas(600, 120);
    private int selectedFinding = -1;
    /** Set while the list follows the cursor's finding, so that selection does not move the cursor again. */
    private boolean following;

    HistoryPane(DocumentViewModel doc, HistoryLaneViewModel vm) {
        this.vm = vm;
        this.doc = doc;
        Label verdict = new Label(vm.problem() != null ? vm.problem()
                : vm.file().getFileName() + " · model " + vm.model().word() + " · " + vm.verdict());
        verdict.setId("historyVerdict");
        verdict.getStyleClass().add("panel-header");
        verdict.setWrapText(true);

        ListView<Finding> findings = new ListView<>();
        findings.setId("historyFindings");
        findings.getItems().setAll(vm.findings());
        findings.setCellFactory(l -> new javafx.scene.control.ListCell<>() {
            @Override
            protected void updateItem(Finding f, boolean empty) {
                super.updateItem(f, empty);
                setText(empty || f == null ? null : "✗ " + f.headline());
                setWrapText(true);
                setPrefWidth(0);   // wrap at the list's width instead of growing a horizontal scroll bar
            }
        });
        findings.setPlaceholder(new Label(vm.problem() != null ? "" : "no finding: " + vm.verdict()));
        findings.setPrefHeight(vm.findings().isEmpty() ? 40 : Math.min(160, 30 + 40 * vm.findings().size()));

        TableView<HistoryLaneViewModel.Row> table = new TableView<>();
        table.setId("historyOps");
        table.getItems().setAll(vm.rows());
        table.getColumns().setAll(java.util.List.of(
                col("client", 150, r -> vm.clients().get(r.client())),
                col("operation", 150, HistoryLaneViewModel.Row::what),
                col("invoked (ns)", 110, r -> Long.toString(r.op().invokeTime())),
                col("completed (ns)", 110, r -> r.op().indeterminate() ? "unknown" : Long.toString(r.op().completeTime())),
                col("op", 60, r -> Integer.toString(r.logOp())),
                col("finding", 60, r -> r.finding() < 0 ? "" : (r.named() ? "✗ " : "in ") + (r.finding() + 1))));
        TableChrome.standard(table);
        table.getSelectionModel().selectedItemProperty().addListener((o, a, r) -> {
            if (r != null) doc.goTo(r.logOp());
        });
        // The history's findings are also the Findings tab's (kind history): choosing one here walks to it there, and
        // walking to one there (or with the bar's prev / next) selects it here.
        findings.getSelectionModel().selectedIndexProperty().addListener((o, a, i) -> {
            selectedFinding = i.intValue();
            // the operations table shows the finding's first named operation (without choosing it: that moves the cursor)
            vm.rowsOf(selectedFinding).stream().filter(HistoryLaneViewModel.Row::named).findFirst()
                    .ifPresent(r -> table.scrollTo(table.getItems().indexOf(r)));
            if (selectedFinding >= 0 && !following) {
                int rank = doc.rankOfHistoryFinding(selectedFinding);
                if (rank >= 0) {
                    doc.goToFinding(rank);
                } else {
                    int op = vm.logOpOf(selectedFinding);
                    if (op >= 0) doc.goTo(op);
                }
            }
            draw();
        });
        doc.findingAtCursorProperty().addListener((o, a, rank) -> {
            int i = doc.historyFindingOf(rank.intValue());
            if (i < 0 || i == findings.getSelectionModel().getSelectedIndex()) return;
            following = true;
            try {
                findings.getSelectionModel().select(i);
            } finally {
                following = false;
            }
        });

        Pane laneHolder = new Pane(lane);
        laneHolder.setId("historyLane");
        lane.widthProperty().bind(laneHolder.widthProperty());
        lane.setHeight(Math.max(60, 20 + ROW * vm.clients().size()));
        laneHolder.setMinHeight(lane.getHeight());
        laneHolder.setPrefHeight(lane.getHeight());
        lane.widthProperty().addListener(o -> draw());
        doc.cursorProperty().addListener(o -> draw());
        lane.setOnMouseClicked(e -> {
            HistoryLaneViewModel.Row r = rowAt(e.getX(), e.getY());
            if (r != null) doc.goTo(r.logOp());
        });

        SplitPane split = new SplitPane(findings, laneHolder, table);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.25, 0.5);
        // The findings and the lane get the height they need (the lane's rows, two lines a finding), the table the
        // rest but never less than a third: fractions of a small window left the table one row.
        split.heightProperty().addListener((o, a, h) -> {
            double total = h.doubleValue();
            if (total <= 0) return;
            double top = Math.min(findings.getPrefHeight(), total / 3);
            double middle = Math.min(laneHolder.getPrefHeight() + 6, total / 3);
            split.setDividerPositions(top / total, (top + middle) / total);
        });
        root.setTop(verdict);
        root.setCenter(split);
        draw();
    }

    private double x(long t) {
        double w = Math.max(1, lane.getWidth() - LEFT - 10);
        return LEFT + vm.position(t) * w;
    }

    private HistoryLaneViewModel.Row rowAt(double px, double py) {
        for (HistoryLaneViewModel.Row r : vm.rows()) {
            double y = 10 + ROW * r.client();
            double end = r.op().indeterminate() ? lane.getWidth() - 10 : x(r.op().completeTime());
            if (py >= y && py <= y + ROW - 6 && px >= x(r.op().invokeTime()) - 2 && px <= Math.max(end, x(r.op().invokeTime()) + 4)) {
                return r;
            }
        }
        return null;
    }

    private void draw() {
        GraphicsContext g = lane.getGraphicsContext2D();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, lane.getWidth(), lane.getHeight());
        g.setFill(Color.gray(0.2));
        for (int c = 0; c < vm.clients().size(); c++) {
            g.fillText(vm.clients().get(c), 6, 10 + ROW * c + 12);
        }
        // The operations a finding names last, so that in a crowded lane they are on top of their neighbours.
        for (boolean namedPass : new boolean[] {false, true}) {
            for (HistoryLaneViewModel.Row r : vm.rows()) {
                if (r.named() != namedPass) continue;
                double y = 10 + ROW * r.client();
                double from = x(r.op().invokeTime());
                double to = r.op().indeterminate() ? lane.getWidth() - 10 : x(r.op().completeTime());
                boolean flagged = r.finding() >= 0;
                boolean chosen = r.named() && r.finding() == selectedFinding;
                // red: named by a finding; pale red: only part of its sub-history (a set's read keeps every add it saw)
                g.setFill(r.op().indeterminate() ? Color.gray(0.75) : r.named() ? Color.rgb(214, 39, 40)
                        : flagged ? Color.rgb(242, 182, 182) : Color.rgb(31, 119, 180));
                g.fillRect(from, y, Math.max(3, to - from), ROW - 6);
                if (chosen) {
                    g.setStroke(Color.BLACK);
                    g.setLineWidth(2);
                    g.strokeRect(from - 2, y - 2, Math.max(3, to - from) + 4, ROW - 2);
                }
            }
        }
        if (doc.size() > 0) {
            long vt = doc.timeline().vt(Math.max(0, Math.min(doc.size() - 1, doc.cursor())));
            double cx = x(vt);
            if (cx >= LEFT && cx <= lane.getWidth()) {
                g.setStroke(Color.rgb(255, 127, 14));
                g.setLineWidth(1.5);
                g.strokeLine(cx, 0, cx, lane.getHeight());
            }
        }
    }

    private static TableColumn<HistoryLaneViewModel.Row, String> col(String name, double width,
            java.util.function.Function<HistoryLaneViewModel.Row, String> f) {
        TableColumn<HistoryLaneViewModel.Row, String> c = new TableColumn<>(name);
        c.setCellValueFactory(x -> new ReadOnlyStringWrapper(f.apply(x.getValue())));
        c.setPrefWidth(width);
        c.setSortable(false);
        return c;
    }

    BorderPane node() {
        return root;
    }
}
