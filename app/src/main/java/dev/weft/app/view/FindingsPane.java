package dev.weft.app.view;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.widgets.TableChrome;
import dev.weft.findings.Finding;
import dev.weft.findings.FindingKind;
import dev.weft.findings.FindingRanking;
import dev.weft.findings.FindingWords;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableCell;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import javafx.scene.layout.BorderPane;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The findings list, like an automated-analysis page: one group per kind in ranking order with its count ("stream
 * integrity (1)", "per-channel FIFO (30)"), each finding under it with its rank, op, invariant and plain words, in
 * columns that can be resized and chosen like every table's (the checker's own message is a column shown on demand).
 * A click jumps to the finding (and "violation k of N" counts from it); the list follows the cursor.
 */
final class FindingsPane {

    /** A row: a kind's group header, or one finding with its rank. */
    private record Row(FindingKind group, int count, Finding finding, int rank) {
        @Override
        public String toString() {
            if (finding == null) return groupText();
            return "#" + (rank + 1) + "  op " + finding.op() + " · " + finding.invariant() + " — " + FindingWords.plain(finding);
        }

        String groupText() {
            return groupHead() + (group.verdict() ? "" : " · network invariant");
        }

        /** The group's name and count, in the tree column ("per-channel FIFO (22)"). */
        String groupHead() {
            return group.label() + " (" + count + ")";
        }

        /** What the group is, in the words column of its row. */
        String groupWords() {
            return group.verdict() ? "a verdict about the program" : "a network invariant";
        }
    }

    private final BorderPane root = new BorderPane();
    private final TreeTableView<Row> tree = new TreeTableView<>();
    private final TreeTableColumn<Row, String> finding;
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
        // The tree column names the group, or the finding's rank; the words column says what a group is. The words come
        // before the invariant: in a narrow window they are what must show.
        finding = column("finding", 150, r -> r.finding() == null ? r.groupHead() : "#" + (r.rank() + 1));
        TreeTableColumn<Row, String> op = column("op", 64, r -> r.finding() == null ? "" : Long.toString(r.finding().op()));
        TreeTableColumn<Row, String> words = column("what happened", 380, r -> r.finding() == null ? r.groupWords() : FindingWords.plain(r.finding()));
        TreeTableColumn<Row, String> invariant = column("invariant", 150, r -> r.finding() == null ? "" : r.finding().invariant());
        TreeTableColumn<Row, String> message = column("checker's message", 420, r -> r.finding() == null ? "" : r.finding().message());
        message.setVisible(false);   // the plain words say it; the checker's own text is there for who wants it
        tree.getColumns().setAll(List.of(finding, op, words, invariant, message));
        tree.setTreeColumn(finding);
        tree.setColumnResizePolicy(TreeTableView.UNCONSTRAINED_RESIZE_POLICY);
        TableChrome.standard(tree);
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

    /** A read-only text column whose cells carry the row's style (a group's header bold, a verdict red). */
    private static TreeTableColumn<Row, String> column(String title, double width, Function<Row, String> text) {
        TreeTableColumn<Row, String> c = new TreeTableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(f.getValue().getValue() == null ? "" : text.apply(f.getValue().getValue())));
        c.setPrefWidth(width);
        c.setMinWidth(Math.min(width, 50));
        c.setSortable(false);   // the order is the ranking
        c.setCellFactory(col -> new TreeTableCell<>() {
            @Override
            protected void updateItem(String s, boolean empty) {
                super.updateItem(s, empty);
                setText(empty ? null : s);
                getStyleClass().removeAll("finding-group", "finding-verdict");
                Row r = empty || getTableRow() == null ? null : getTableRow().getItem();
                if (r == null) return;
                if (r.finding() == null) getStyleClass().add("finding-group");
                if (r.group().verdict()) getStyleClass().add("finding-verdict");
            }
        });
        return c;
    }

    private void fill() {
        TreeItem<Row> top = new TreeItem<>();
        double widest = 0;
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
            widest = Math.max(widest, textWidth(group.getValue().groupHead()));
        }
        // The tree column fits the longest group name (bold) after the disclosure arrow, so no group name is cut.
        finding.setPrefWidth(Math.max(90, widest + 44));
        following = true;
        try {
            tree.setRoot(top);
        } finally {
            following = false;
        }
        follow();
    }

    private static double textWidth(String s) {
        javafx.scene.text.Text t = new javafx.scene.text.Text(s);
        javafx.scene.text.Font f = javafx.scene.text.Font.getDefault();
        t.setFont(javafx.scene.text.Font.font(f.getFamily(), javafx.scene.text.FontWeight.BOLD, f.getSize()));
        return t.getLayoutBounds().getWidth();
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
    TreeTableView<?> tree() { return tree; }
}
