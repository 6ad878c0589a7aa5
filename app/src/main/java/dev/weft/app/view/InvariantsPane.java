package dev.weft.app.view;

import dev.weft.app.widgets.TableChrome;
import dev.weft.app.source.ViolationInfo;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.InvariantsViewModel;
import dev.weft.app.vm.ViolationText;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.VBox;

/**
 * Choose invariants; a summary per invariant (state, first / last op, count); the violations (op, vt, what
 * happened, message), wrapped with the full text in a tooltip. A click jumps there; the list follows the cursor.
 */
final class InvariantsPane {

    private final BorderPane root = new BorderPane();
    private boolean following;

    InvariantsPane(DocumentViewModel doc) {
        FlowPane choices = new FlowPane(10, 4);
        choices.getStyleClass().add("panel-header");
        for (String name : doc.availableInvariants()) {
            CheckBox cb = new CheckBox(name);
            cb.setId("check-" + name);
            cb.setSelected(doc.selectedInvariants().contains(name));
            cb.selectedProperty().addListener((o, a, on) -> {
                if (on && !doc.selectedInvariants().contains(name)) doc.selectedInvariants().add(name);
                if (!on) doc.selectedInvariants().remove(name);
                doc.runChecks(false);
            });
            choices.getChildren().add(cb);
        }
        Label count = new Label();
        count.setId("violationCount");
        Runnable updateCount = () -> count.setText(doc.checkingProperty().get() ? "checking…"
                : doc.violations().size() + " violation(s)");
        doc.violations().addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> updateCount.run());
        doc.checkingProperty().addListener(o -> updateCount.run());
        updateCount.run();
        choices.getChildren().add(count);

        InvariantsViewModel summaryVm = new InvariantsViewModel(doc);
        TableView<InvariantsViewModel.Row> summary = new TableView<>(summaryVm.rows());
        summary.setId("invariantSummary");
        summary.getColumns().setAll(java.util.List.of(
                col("invariant", 150, r -> r.name()),
                col("state", 170, r -> r.state()),
                col("first op", 70, r -> r.first() < 0 ? "—" : Long.toString(r.first())),
                col("last op", 70, r -> r.last() < 0 ? "—" : Long.toString(r.last())),
                col("count", 55, r -> Integer.toString(r.count())),
                col("along the run", 200, r -> r.note())));
        TableChrome.standard(summary);
        summary.setFixedCellSize(24);
        summary.prefHeightProperty().bind(javafx.beans.binding.Bindings.size(summaryVm.rows()).multiply(24).add(30));
        summary.setMinHeight(60);
        summary.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        summary.getSelectionModel().selectedItemProperty().addListener((o, a, r) -> {
            if (r != null && r.first() >= 0) doc.goTo(r.first());
        });

        TableView<ViolationInfo> table = new TableView<>(doc.violations());
        table.setId("violationTable");
        TableColumn<ViolationInfo, Number> op = new TableColumn<>("op");
        op.setCellValueFactory(c -> new ReadOnlyObjectWrapper<>(c.getValue().op()));
        op.setPrefWidth(60);
        TableColumn<ViolationInfo, String> vt = new TableColumn<>("vt (ns)");
        vt.setCellValueFactory(c -> new ReadOnlyStringWrapper(Long.toUnsignedString(c.getValue().vt())));
        vt.setPrefWidth(90);
        TableColumn<ViolationInfo, String> inv = new TableColumn<>("invariant");
        inv.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().invariant()));
        inv.setPrefWidth(140);
        TableColumn<ViolationInfo, String> what = new TableColumn<>("what happened");
        what.setCellValueFactory(c -> new ReadOnlyStringWrapper(ViolationText.plainEnglish(c.getValue())));
        what.setPrefWidth(420);
        what.setCellFactory(c -> wrapping());
        TableColumn<ViolationInfo, String> msg = new TableColumn<>("message");
        msg.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().message()));
        msg.setPrefWidth(380);
        msg.setCellFactory(c -> wrapping());
        table.getColumns().setAll(java.util.List.of(op, vt, inv, what, msg));
        TableChrome.standard(table);
        table.setPlaceholder(new Label("no violations of the chosen invariants"));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, v) -> {
            if (v != null && !following) doc.goTo(v.op());
        });
        // The list follows the cursor: the last violation at or before it is selected and scrolled to.
        Runnable follow = () -> {
            int i = doc.violationAtOrBeforeCursor();
            following = true;
            try {
                if (i < 0) table.getSelectionModel().clearSelection();
                else if (table.getSelectionModel().getSelectedIndex() != i) {
                    table.getSelectionModel().clearAndSelect(i);
                    table.scrollTo(Math.max(0, i - 2));
                }
            } finally {
                following = false;
            }
        };
        doc.cursorProperty().addListener(o -> follow.run());
        doc.violations().addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> follow.run());
        follow.run();
        root.setTop(new VBox(choices, summary));
        root.setCenter(table);
    }

    private static TableColumn<InvariantsViewModel.Row, String> col(String name, double width,
                                                                      java.util.function.Function<InvariantsViewModel.Row, String> f) {
        TableColumn<InvariantsViewModel.Row, String> c = new TableColumn<>(name);
        c.setCellValueFactory(x -> new ReadOnlyStringWrapper(f.apply(x.getValue())));
        c.setPrefWidth(width);
        c.setCellFactory(x -> wrapping());
        c.setSortable(false);
        return c;
    }

    /** A cell that wraps its text and shows all of it in a tooltip. */
    /** One line, cut with an ellipsis, the whole text in the tooltip: for tables that must keep a fixed row height. */
    static <S> TableCell<S, String> oneLine() {
        return new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                setTextOverrun(javafx.scene.control.OverrunStyle.ELLIPSIS);
                setTooltip(empty || item == null ? null : new Tooltip(item));
            }
        };
    }

    static <S> TableCell<S, String> wrapping() {
        return new TableCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    setText(null);
                    setTooltip(null);
                    return;
                }
                setText(item);
                setWrapText(true);
                Tooltip t = new Tooltip(item);
                t.setWrapText(true);
                t.setMaxWidth(600);
                setTooltip(t);
            }
        };
    }

    BorderPane node() {
        return root;
    }
}
