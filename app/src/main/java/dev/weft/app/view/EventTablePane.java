package dev.weft.app.view;

import dev.weft.app.widgets.TableChrome;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.EventLines;
import dev.weft.app.vm.FilterViewModel;
import dev.weft.app.vm.OpList;
import dev.weft.timeline.TimelineModel;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * The virtualized event table: rows are the ops the filters leave, cells take event lines from
 * the document's background-filled cache.
 * Selection is synced both ways with the document (and so with the timeline).
 */
final class EventTablePane {

    private final TableView<Integer> table = new TableView<>();
    private final DocumentViewModel doc;
    private boolean syncing;

    EventTablePane(DocumentViewModel doc, FilterViewModel filter) {
        this.doc = doc;
        table.getStyleClass().add("event-table");
        table.setId("eventTable");
        TimelineModel tm = doc.timeline();
        TableColumn<Integer, Number> op = new TableColumn<>("op");
        op.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue()));
        op.setPrefWidth(64);
        op.setMinWidth(50);
        TableColumn<Integer, String> vt = new TableColumn<>("vt (ns)");
        vt.setCellValueFactory(c -> new ReadOnlyStringWrapper(Long.toUnsignedString(tm.vt(c.getValue()))));
        vt.setPrefWidth(90);
        vt.setMinWidth(80);
        TableColumn<Integer, String> lane = new TableColumn<>("node");
        lane.setCellValueFactory(c -> new ReadOnlyStringWrapper(tm.lanes().get(tm.lane(c.getValue())).label()));
        lane.setPrefWidth(80);
        lane.setMinWidth(70);
        TableColumn<Integer, String> kind = new TableColumn<>("kind");
        kind.setCellValueFactory(c -> new ReadOnlyStringWrapper(tm.kindLabel(c.getValue())));
        kind.setPrefWidth(156);   // "send (no receiver)" whole at the table font
        kind.setMinWidth(146);
        TableColumn<Integer, String> what = new TableColumn<>("event");
        // Lines come from a cache filled in the background; a row still waiting shows a placeholder and is
        // redrawn when its block arrives (refresh asks again for rows still missing).
        EventLines lines = doc.eventLines();
        what.setCellValueFactory(c -> {
            String line = lines.lineOrRequest(c.getValue());
            return new ReadOnlyStringWrapper(line == null ? EventLines.PLACEHOLDER : line);
        });
        lines.revisionProperty().addListener(o -> table.refresh());
        what.setPrefWidth(520);
        table.getColumns().setAll(java.util.List.of(op, vt, lane, kind, what));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        for (TableColumn<Integer, ?> c : table.getColumns()) c.setSortable(false);
        TableChrome.standard(table);
        table.setFixedCellSize(22);
        setRows(filter.visibleOps());
        filter.visibleOpsProperty().addListener((o, a, b) -> setRows(b));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (syncing || b == null) return;
            syncing = true;
            doc.selectionProperty().set(b);
            syncing = false;
        });
        doc.selectionProperty().addListener((o, a, b) -> showOp(b.intValue()));
        showOp(doc.selectionProperty().get());
    }

    TableView<Integer> node() {
        return table;
    }

    private void setRows(OpList rows) {
        syncing = true;
        table.setItems(FXCollections.observableList(rows));
        syncing = false;
        showOp(doc.selectionProperty().get());
    }

    private void showOp(int op) {
        if (syncing) return;
        syncing = true;
        try {
            int row = rowOf(op);
            if (row < 0) {
                // The cursor's op is filtered away: keep the place, showing the rows round where it would be.
                table.getSelectionModel().clearSelection();
                int near = nearestRow(op);
                if (near >= 0) table.scrollTo(Math.max(0, near - 3));
                return;
            }
            table.getSelectionModel().clearAndSelect(row);
            scrollIntoView(row);
        } finally {
            syncing = false;
        }
    }

    private int rowOf(int op) {
        if (op < 0) return -1;
        int n = table.getItems().size();
        // The items wrap an OpList; binary search over its ascending ops.
        int lo = 0, hi = n - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = table.getItems().get(mid);
            if (v < op) lo = mid + 1;
            else if (v > op) hi = mid - 1;
            else return mid;
        }
        return -1;
    }

    /** The first row at or after op (or the last row), -1 when the table is empty. */
    private int nearestRow(int op) {
        int n = table.getItems().size();
        if (n == 0 || op < 0) return -1;
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (table.getItems().get(mid) < op) lo = mid + 1;
            else hi = mid;
        }
        return Math.min(lo, n - 1);
    }

    /** Index of the first row on screen (for tests), -1 before the first layout. */
    int firstVisibleRow() {
        var flow = (javafx.scene.control.skin.VirtualFlow<?>) table.lookup(".virtual-flow");
        return flow == null || flow.getFirstVisibleCell() == null ? -1 : flow.getFirstVisibleCell().getIndex();
    }

    private void scrollIntoView(int row) {
        var flow = (javafx.scene.control.skin.VirtualFlow<?>) table.lookup(".virtual-flow");
        if (flow == null) {
            table.scrollTo(Math.max(0, row - 3));
            return;
        }
        var first = flow.getFirstVisibleCell();
        var last = flow.getLastVisibleCell();
        if (first == null || last == null || row < first.getIndex() || row > last.getIndex() - 1) {
            table.scrollTo(Math.max(0, row - 3));
        }
    }
}
