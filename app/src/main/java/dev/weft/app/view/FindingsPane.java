package dev.weft.app.view;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.findings.Finding;
import dev.weft.findings.FindingKind;
import dev.weft.findings.FindingRanking;
import dev.weft.findings.FindingWords;
import javafx.scene.control.Label;
import javafx.scene.control.TreeCell;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;

import java.util.Map;

/**
 * The findings list, like an automated-analysis page: one group per kind in ranking order with its count ("stream
 * integrity (1)", "per-channel FIFO (30)"), each finding under it with its op and plain words. A click jumps to the finding
 * (and "violation k of N" counts from it); the list follows the cursor.
 */
final class FindingsPane {

    /** A row: a kind's group header, or one finding with its rank. */
    private record Row(FindingKind group, int count, Finding finding, int rank) {
        @Override
        public String toString() {
            if (finding == null) return group.label() + " (" + count + ")" + (group.verdict() ? "" : " · network invariant");
            return "#" + (rank + 1) + "  op " + finding.op() + " · " + finding.invariant() + " — " + FindingWords.plain(finding);
        }
    }

    private final BorderPane root = new BorderPane();
    private final TreeView<Row> tree = new TreeView<>();
    private final DocumentViewModel doc;
    private boolean following;

    FindingsPane(DocumentViewModel doc) {
        this.doc = doc;
        Label summary = new Label();
        summary.setId("findingsSummary");
        summary.getStyleClass().add("panel-header");
        summary.setMaxWidth(Double.MAX_VALUE);
        tree.setId("findingsList");
        tree.setShowRoot(false);
        tree.setRoot(new TreeItem<>());
        tree.setCellFactory(t -> new TreeCell<>() {
            @Override
            protected void updateItem(Row r, boolean empty) {
                super.updateItem(r, empty);
                setText(empty || r == null ? null : r.toString());
                setTooltip(empty || r == null || r.finding() == null ? null : new Tooltip(r.toString() + "\n" + r.finding().message()));
                getStyleClass().removeAll("finding-group", "finding-verdict");
                if (!empty && r != null && r.finding() == null) getStyleClass().add("finding-group");
                if (!empty && r != null && r.group().verdict()) getStyleClass().add("finding-verdict");
            }
        });
        tree.getSelectionModel().selectedItemProperty().addListener((o, a, item) -> {
            if (following || item == null || item.getValue() == null || item.getValue().finding() == null) return;
            doc.goToFinding(item.getValue().rank());
        });
        Runnable refill = () -> {
            fill();
            int n = doc.findings().size();
            summary.setText(n == 0 ? "No findings: the checks ticked in Invariants found nothing."
                    : n + (n == 1 ? " finding" : " findings") + ", most severe first: " + FindingRanking.countsText(doc.findings()));
        };
        doc.findings().addListener((javafx.collections.ListChangeListener<Finding>) c -> refill.run());
        doc.findingAtCursorProperty().addListener(o -> follow());
        refill.run();
        root.setTop(summary);
        root.setCenter(tree);
    }

    private void fill() {
        TreeItem<Row> top = new TreeItem<>();
        Map<FindingKind, Integer> counts = FindingRanking.counts(doc.findings());
        for (Map.Entry<FindingKind, Integer> e : counts.entrySet()) {
            TreeItem<Row> group = new TreeItem<>(new Row(e.getKey(), e.getValue(), null, -1));
            for (int i = 0; i < doc.findings().size(); i++) {
                Finding f = doc.findings().get(i);
                if (f.kind() == e.getKey()) group.getChildren().add(new TreeItem<>(new Row(f.kind(), 0, f, i)));
            }
            // Verdicts open, the (often many) network findings folded with their count showing.
            group.setExpanded(e.getKey().verdict() || counts.size() == 1);
            top.getChildren().add(group);
        }
        following = true;
        try {
            tree.setRoot(top);
        } finally {
            following = false;
        }
        follow();
    }

    /** Selects the finding the cursor is on (the list follows the cursor, without moving it). */
    private void follow() {
        int rank = doc.findingAtCursorProperty().get();
        following = true;
        try {
            for (TreeItem<Row> group : tree.getRoot().getChildren()) {
                for (TreeItem<Row> item : group.getChildren()) {
                    if (item.getValue().rank() == rank) {
                        group.setExpanded(true);
                        tree.getSelectionModel().select(item);
                        int row = tree.getRow(item);
                        if (row >= 0) tree.scrollTo(Math.max(0, row - 2));
                        return;
                    }
                }
            }
            tree.getSelectionModel().clearSelection();
        } finally {
            following = false;
        }
    }

    BorderPane node() { return root; }
    TreeView<?> tree() { return tree; }
}
