package dev.weft.app.view;

import dev.weft.app.vm.PlanViewModel;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;

import java.util.function.Function;

/**
 * The Plan tab: the plan's deviations from the baseline as a table (kind, channel, seq, fate, sent at, delivered
 * at) — datagrams, TCP segments and timed events — under a line naming the plan file; choosing a row puts the cursor
 * on the op where that datagram was sent, or where that event took effect.
 */
final class PlanPane {

    private final BorderPane root = new BorderPane();
    private final TableView<PlanViewModel.Row> table = new TableView<>();

    PlanPane(PlanViewModel vm) {
        Label summary = new Label();
        summary.setId("planSummary");
        summary.getStyleClass().add("panel-header");
        summary.setMaxWidth(Double.MAX_VALUE);
        summary.setWrapText(true);
        summary.textProperty().bind(vm.summaryProperty());
        table.setId("planTable");
        table.setPlaceholder(new Label("no deviations"));
        // the short columns keep their words whole; the channel and the fate give way first (the row's tooltip has all)
        table.getColumns().add(column("kind", PlanViewModel.Row::kind, 42, 42));
        table.getColumns().add(column("channel src → dst", PlanViewModel.Row::channel, 200, 120));
        table.getColumns().add(column("seq", PlanViewModel.Row::seq, 36, 30));
        table.getColumns().add(column("fate", PlanViewModel.Row::fate, 120, 70));
        table.getColumns().add(column("sent", PlanViewModel.Row::sentAt, 62, 58));
        table.getColumns().add(column("delivered", PlanViewModel.Row::deliveredAt, 70, 68));
        // every column in view, the channel and fate taking what width there is
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_ALL_COLUMNS);
        table.setRowFactory(t -> {
            javafx.scene.control.TableRow<PlanViewModel.Row> row = new javafx.scene.control.TableRow<>();
            row.itemProperty().addListener((o, a, r) -> row.setTooltip(r == null ? null : new javafx.scene.control.Tooltip(r.tip())));
            return row;
        });
        table.setItems(vm.rows());
        table.getSelectionModel().selectedItemProperty().addListener((o, a, row) -> vm.choose(row));
        root.setTop(summary);
        root.setCenter(table);
    }

    private static TableColumn<PlanViewModel.Row, String> column(String name, Function<PlanViewModel.Row, String> value,
            double width, double minWidth) {
        TableColumn<PlanViewModel.Row, String> c = new TableColumn<>(name);
        c.setCellValueFactory(cell -> new ReadOnlyObjectWrapper<>(value.apply(cell.getValue())));
        c.setPrefWidth(width);
        c.setMinWidth(minWidth);
        c.setSortable(false);   // the plan's own (src, dst, chan_seq) order
        return c;
    }

    BorderPane node() { return root; }
    TableView<PlanViewModel.Row> table() { return table; }
}
