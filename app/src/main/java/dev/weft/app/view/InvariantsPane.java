package dev.weft.app.view;

import dev.weft.app.source.ViolationInfo;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.ViolationText;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;

/** Choose invariants, list their violations (op, vt, message, what happened); a click jumps there. */
final class InvariantsPane {

    private final BorderPane root = new BorderPane();

    InvariantsPane(DocumentViewModel doc) {
        HBox choices = new HBox(10);
        choices.getStyleClass().add("panel-header");
        for (String name : doc.source().availableInvariants()) {
            CheckBox cb = new CheckBox(name);
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
        inv.setPrefWidth(120);
        TableColumn<ViolationInfo, String> what = new TableColumn<>("what happened");
        what.setCellValueFactory(c -> new ReadOnlyStringWrapper(ViolationText.plainEnglish(c.getValue())));
        what.setPrefWidth(420);
        TableColumn<ViolationInfo, String> msg = new TableColumn<>("message");
        msg.setCellValueFactory(c -> new ReadOnlyStringWrapper(c.getValue().message()));
        msg.setPrefWidth(420);
        table.getColumns().setAll(java.util.List.of(op, vt, inv, what, msg));
        table.setPlaceholder(new Label("no violations of the chosen invariants"));
        table.getSelectionModel().selectedItemProperty().addListener((o, a, v) -> {
            if (v != null) doc.goTo(v.op());
        });
        root.setTop(choices);
        root.setCenter(table);
    }

    BorderPane node() {
        return root;
    }
}
