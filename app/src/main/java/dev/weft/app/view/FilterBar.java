package dev.weft.app.view;

import dev.weft.app.vm.FilterViewModel;
import dev.weft.app.vm.SearchViewModel;
import org.controlsfx.control.CheckComboBox;
import dev.weft.timeline.MarkKind;
import dev.weft.timeline.TimelineModel;
import javafx.beans.property.ObjectProperty;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/** Filters (nodes, kinds/outcomes, op and vt ranges, payload text) and search with next / previous. */
final class FilterBar {

    private final HBox root = new HBox(6);
    private final TextField search = new TextField();
    private CheckComboBox<String> nodes;
    private final TimelineModel model;
    private final FilterViewModel filter;
    /** op from, op to, vt from, vt to, payload: committed on Enter or when they lose the focus. */
    private TextField[] inputs;

    FilterBar(TimelineModel model, FilterViewModel filter, SearchViewModel searchVm) {
        this.model = model;
        this.filter = filter;
        root.getStyleClass().add("filter-bar");
        // Multi-select pickers that stay open while you tick (ControlsFX CheckComboBox): ticked = shown.
        CheckComboBox<String> nodes = new CheckComboBox<>();
        nodes.setId("nodeFilter");
        nodes.setTitle("Nodes");
        nodes.setShowCheckedCount(true);
        for (int i = 0; i < model.laneCount(); i++) nodes.getItems().add(model.lanes().get(i).label());
        for (int i = 0; i < model.laneCount(); i++) if (!filter.hiddenLanes().contains(i)) nodes.getCheckModel().check(i);
        nodes.getCheckModel().getCheckedIndices().addListener((javafx.collections.ListChangeListener<Integer>) c -> {
            for (int i = 0; i < model.laneCount(); i++) filter.setLaneHidden(i, !nodes.getCheckModel().isChecked(i));
        });
        filter.hiddenLanes().addListener((javafx.collections.SetChangeListener<Integer>) c -> {
            for (int i = 0; i < model.laneCount(); i++) {
                boolean shown = !filter.hiddenLanes().contains(i);
                if (nodes.getCheckModel().isChecked(i) != shown) {
                    if (shown) nodes.getCheckModel().check(i);
                    else nodes.getCheckModel().clearCheck(i);
                }
            }
        });
        CheckComboBox<MarkKind> kinds = new CheckComboBox<>();
        kinds.setId("kindFilter");
        kinds.setTitle("Kinds");
        kinds.setShowCheckedCount(true);
        kinds.setConverter(new javafx.util.StringConverter<>() {
            @Override public String toString(MarkKind k) { return k == null ? "" : k.label(); }
            @Override public MarkKind fromString(String s) { return null; }
        });
        kinds.getItems().addAll(MarkKind.values());
        for (MarkKind k : MarkKind.values()) if ((filter.hiddenKindsProperty().get() & k.bit()) == 0) kinds.getCheckModel().check(k);
        kinds.getCheckModel().getCheckedItems().addListener((javafx.collections.ListChangeListener<MarkKind>) c -> {
            for (MarkKind k : MarkKind.values()) filter.setKindHidden(k, !kinds.getCheckModel().isChecked(k));
        });
        filter.hiddenKindsProperty().addListener(o -> {
            for (MarkKind k : MarkKind.values()) {
                boolean shown = (filter.hiddenKindsProperty().get() & k.bit()) == 0;
                if (kinds.getCheckModel().isChecked(k) != shown) {
                    if (shown) kinds.getCheckModel().check(k);
                    else kinds.getCheckModel().clearCheck(k);
                }
            }
        });
        TextField opFrom = number("op from", filter.opFromProperty());
        opFrom.setId("opFrom");
        TextField opTo = number("op to", filter.opToProperty());
        opTo.setId("opTo");
        TextField vtFrom = number("vt from", filter.vtFromProperty());
        TextField vtTo = number("vt to", filter.vtToProperty());
        TextField payload = new TextField();
        payload.setPromptText("payload contains");
        payload.setPrefColumnCount(8);
        payload.setOnAction(e -> filter.payloadTextProperty().set(payload.getText()));
        payload.focusedProperty().addListener((o, a, f) -> {
            if (!f) filter.payloadTextProperty().set(payload.getText());
        });
        inputs = new TextField[] {opFrom, opTo, vtFrom, vtTo, payload};
        Button clear = new Button("Clear filters");
        clear.setOnAction(e -> {
            filter.clear();
            for (TextField t : new TextField[] {opFrom, opTo, vtFrom, vtTo, payload}) t.clear();
        });
        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        search.setPromptText("search events (Ctrl+F)");
        search.setId("searchField");
        search.setPrefColumnCount(10);
        search.textProperty().bindBidirectional(searchVm.queryProperty());
        search.setOnAction(e -> searchVm.next());
        Button prev = new Button("▲");
        prev.setTooltip(new Tooltip("previous match (Shift+F3)"));
        prev.setOnAction(e -> searchVm.previous());
        Button next = new Button("▼");
        next.setTooltip(new Tooltip("next match (F3)"));
        next.setOnAction(e -> searchVm.next());
        Label active = new Label();
        active.setId("filterIndicator");
        active.getStyleClass().add("filter-active");
        active.textProperty().bind(filter.summaryProperty());
        Label matches = new Label();
        matches.setId("searchStatus");
        matches.textProperty().bind(searchVm.statusProperty());
        this.nodes = nodes;
        Label show = new Label("Show:");
        // Words and buttons keep their width; the text fields give way when the window is narrow.
        for (javafx.scene.control.Control c : new javafx.scene.control.Control[] {show, nodes, kinds, clear, matches, prev, next}) {
            c.setMinWidth(Region.USE_PREF_SIZE);
        }
        root.getChildren().addAll(show, nodes, kinds, opFrom, opTo, vtFrom, vtTo, payload, clear, active, spring,
                search, matches, prev, next);
    }

    /** A field holding an optional unsigned number; bad text turns red and filters nothing. */
    private static TextField number(String prompt, ObjectProperty<Long> target) {
        TextField f = new TextField();
        f.setPromptText(prompt);
        f.setPrefColumnCount(5);
        Runnable commit = () -> {
            String t = f.getText().trim().replace("_", "");
            f.getStyleClass().remove("bad-input");
            if (t.isEmpty()) {
                target.set(null);
                return;
            }
            try {
                target.set(Long.parseUnsignedLong(t));
            } catch (NumberFormatException e) {
                f.getStyleClass().add("bad-input");
                target.set(null);
            }
        };
        f.setOnAction(e -> commit.run());
        f.focusedProperty().addListener((o, a, focused) -> {
            if (!focused) commit.run();
        });
        return f;
    }

    /**
     * Takes over what was typed and ticked in the bar of the same recording before it grew (a followed recording):
     * the ranges, the payload text, the hidden kinds, the hidden nodes (by name: a new node may take a lane before
     * them) and the search.
     */
    void continueFrom(FilterBar before) {
        for (int i = 0; i < inputs.length; i++) {
            inputs[i].setText(before.inputs[i].getText());
            inputs[i].getOnAction().handle(new javafx.event.ActionEvent());
        }
        filter.hiddenKindsProperty().set(before.filter.hiddenKindsProperty().get());
        java.util.Set<String> hidden = new java.util.HashSet<>();
        for (int lane : before.filter.hiddenLanes()) hidden.add(before.model.lanes().get(lane).label());
        for (int i = 0; i < model.laneCount(); i++) {
            if (hidden.contains(model.lanes().get(i).label())) filter.setLaneHidden(i, true);
        }
        search.setText(before.search.getText());
    }

    HBox node() {
        return root;
    }

    CheckComboBox<String> nodePicker() {
        return nodes;
    }

    TextField searchField() {
        return search;
    }
}
