package dev.weft.app.view;

import dev.weft.app.vm.FilterViewModel;
import dev.weft.app.vm.SearchViewModel;
import dev.weft.timeline.Lane;
import dev.weft.timeline.MarkKind;
import dev.weft.timeline.TimelineModel;
import javafx.beans.property.ObjectProperty;
import javafx.scene.control.Button;
import javafx.scene.control.CheckMenuItem;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;

/** Filters (nodes, kinds/outcomes, op and vt ranges, payload text) and search with next / previous. */
final class FilterBar {

    private final HBox root = new HBox(6);
    private final TextField search = new TextField();

    FilterBar(TimelineModel model, FilterViewModel filter, SearchViewModel searchVm) {
        root.getStyleClass().add("filter-bar");
        MenuButton nodes = new MenuButton("Nodes");
        nodes.setId("nodeFilter");
        for (int i = 0; i < model.laneCount(); i++) {
            Lane lane = model.lanes().get(i);
            CheckMenuItem item = new CheckMenuItem(lane.label());
            item.setId("lane-" + i);
            item.setSelected(!filter.hiddenLanes().contains(i));
            int index = i;
            item.selectedProperty().addListener((o, a, on) -> filter.setLaneHidden(index, !on));
            filter.hiddenLanes().addListener((javafx.collections.SetChangeListener<Integer>) c -> item.setSelected(!filter.hiddenLanes().contains(index)));
            nodes.getItems().add(item);
        }
        MenuButton kinds = new MenuButton("Kinds");
        kinds.setId("kindFilter");
        for (MarkKind k : MarkKind.values()) {
            CheckMenuItem item = new CheckMenuItem(k.label());
            item.setSelected((filter.hiddenKindsProperty().get() & k.bit()) == 0);
            item.selectedProperty().addListener((o, a, on) -> filter.setKindHidden(k, !on));
            filter.hiddenKindsProperty().addListener(o -> item.setSelected((filter.hiddenKindsProperty().get() & k.bit()) == 0));
            kinds.getItems().add(item);
        }
        TextField opFrom = number("op from", filter.opFromProperty());
        opFrom.setId("opFrom");
        TextField opTo = number("op to", filter.opToProperty());
        opTo.setId("opTo");
        TextField vtFrom = number("vt from", filter.vtFromProperty());
        TextField vtTo = number("vt to", filter.vtToProperty());
        TextField payload = new TextField();
        payload.setPromptText("payload contains");
        payload.setPrefColumnCount(10);
        payload.setOnAction(e -> filter.payloadTextProperty().set(payload.getText()));
        payload.focusedProperty().addListener((o, a, f) -> {
            if (!f) filter.payloadTextProperty().set(payload.getText());
        });
        Button clear = new Button("Clear filters");
        clear.setOnAction(e -> {
            filter.clear();
            for (TextField t : new TextField[] {opFrom, opTo, vtFrom, vtTo, payload}) t.clear();
        });
        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        search.setPromptText("search events (Ctrl+F)");
        search.setId("searchField");
        search.setPrefColumnCount(14);
        search.textProperty().bindBidirectional(searchVm.queryProperty());
        search.setOnAction(e -> searchVm.next());
        Button prev = new Button("▲");
        prev.setTooltip(new Tooltip("previous match (Shift+F3)"));
        prev.setOnAction(e -> searchVm.previous());
        Button next = new Button("▼");
        next.setTooltip(new Tooltip("next match (F3)"));
        next.setOnAction(e -> searchVm.next());
        root.getChildren().addAll(new Label("Show:"), nodes, kinds, opFrom, opTo, vtFrom, vtTo, payload, clear, spring, search, prev, next);
    }

    /** A field holding an optional unsigned number; bad text turns red and filters nothing. */
    private static TextField number(String prompt, ObjectProperty<Long> target) {
        TextField f = new TextField();
        f.setPromptText(prompt);
        f.setPrefColumnCount(6);
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

    HBox node() {
        return root;
    }

    TextField searchField() {
        return search;
    }
}
