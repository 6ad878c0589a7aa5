package dev.weft.app.view;

import dev.weft.app.widgets.TableChrome;
import dev.weft.app.source.StateSnapshot;
import dev.weft.app.vm.StateViewModel;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;

/** The broker state after the cursor op; rows this op added / removed / changed are highlighted. */
final class StatePane {

    private final BorderPane root = new BorderPane();

    StatePane(StateViewModel vm) {
        Label header = new Label();
        header.getStyleClass().add("panel-header");
        header.setId("stateHeader");
        vm.stateProperty().addListener((o, a, s) -> header.setText(describe(s)));
        header.setText(describe(vm.stateProperty().get()));
        TableView<StateViewModel.Row> table = new TableView<>(vm.rows());
        table.setId("stateTable");
        TableColumn<StateViewModel.Row, String> section = new TableColumn<>("what");
        section.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().section()));
        section.setPrefWidth(70);
        section.setMinWidth(66);
        TableColumn<StateViewModel.Row, String> key = new TableColumn<>("key");
        key.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().key()));
        // Channel keys ("10.0.0.1:7000 → 10.0.0.6:9000") must fit whole: wide enough, and a tooltip regardless.
        key.setPrefWidth(250);
        key.setMinWidth(230);
        key.setCellFactory(c -> InvariantsPane.oneLine());
        TableColumn<StateViewModel.Row, String> detail = new TableColumn<>("detail");
        detail.setCellValueFactory(c -> new ReadOnlyStringWrapper(
                (c.getValue().change() == StateViewModel.Change.SAME ? "" : c.getValue().change().name().toLowerCase() + ": ") + c.getValue().detail()));
        detail.setPrefWidth(420);
        table.getColumns().setAll(java.util.List.of(section, key, detail));
        // Rows of one fixed height: a state with thousands of pending datagrams (the 1M-record log) is laid out
        // without measuring every row, so moving the cursor stays quick.
        table.setFixedCellSize(22);
        detail.setCellFactory(c -> InvariantsPane.oneLine());
        TableChrome.standard(table);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("no pending datagrams, bindings, channels or TCP streams yet"));
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(StateViewModel.Row item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().removeAll("state-added", "state-removed", "state-changed");
                if (!empty && item != null) {
                    switch (item.change()) {
                        case ADDED -> getStyleClass().add("state-added");
                        case REMOVED -> getStyleClass().add("state-removed");
                        case CHANGED -> getStyleClass().add("state-changed");
                        default -> { }
                    }
                }
            }
        });
        root.setTop(header);
        root.setCenter(table);
    }

    private static String describe(StateSnapshot s) {
        if (s == null) return "state: —";
        return "state after op " + s.op() + " · vt " + Long.toUnsignedString(s.vt()) + " ns · " + s.pending().size()
                + " pending · sent " + Long.toUnsignedString(s.sent()) + " · dropped " + Long.toUnsignedString(s.dropped());
    }

    BorderPane node() {
        return root;
    }
}
