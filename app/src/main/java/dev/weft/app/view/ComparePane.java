package dev.weft.app.view;

import dev.weft.app.vm.CompareViewModel;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.timeline.TimelinePalette;
import dev.weft.timeline.TimelineView;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.ToolBar;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

import static dev.weft.app.view.ToolButtons.button;

/**
 * Two recordings one above the other, aligned by op: the first divergence marked on both timelines (the error
 * marker), the first differing delivery highlighted, A's cursor event linked to the same event on B, both cursors
 * stepped together, and the {@code weft diff} text above.
 */
public final class ComparePane {

    private final CompareViewModel vm;
    private final TimelineView timelineA = new TimelineView();
    private final TimelineView timelineB = new TimelineView();
    private final VBox root;

    public ComparePane(CompareViewModel vm, ObservableValue<TimelinePalette> palette) {
        this.vm = vm;
        Label headline = new Label();
        headline.setId("compareHeadline");
        headline.getStyleClass().add("compare-headline");
        headline.setWrapText(true);
        headline.setMaxWidth(Double.MAX_VALUE);
        headline.textProperty().bind(vm.headlineProperty());
        headline.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        Label schedule = new Label();
        schedule.setId("compareSchedule");
        schedule.setWrapText(true);
        schedule.textProperty().bind(vm.scheduleNoteProperty());
        schedule.visibleProperty().bind(vm.scheduleNoteProperty().isNotEmpty());
        schedule.managedProperty().bind(schedule.visibleProperty());
        TextArea report = new TextArea();
        report.setId("compareReport");
        report.setEditable(false);
        report.setPrefRowCount(6);
        report.setStyle("-fx-font-family: monospace;");
        report.textProperty().bind(vm.reportProperty());
        Button back = button("◀ both", "step both cursors back one op", () -> vm.stepBoth(-1));
        back.setId("compareStepBack");
        Button fwd = button("both ▶", "step both cursors forward one op", () -> vm.stepBoth(1));
        fwd.setId("compareStepForward");
        Button divergence = button("first node-visible difference",
                "both cursors to the first delivery or send a node saw differently (each at its own op)", vm::goToDivergence);
        divergence.setId("compareGoToDivergence");
        javafx.scene.control.ToggleButton byVt = new javafx.scene.control.ToggleButton("align by vt");
        byVt.setId("compareByVt");
        byVt.setTooltip(new Tooltip("compare the events of each virtual time as a set (order within one vt ignored)"));
        byVt.setFocusTraversable(false);
        byVt.setOnAction(e -> vm.toggleAlignment());
        Label cursors = new Label();
        cursors.setId("compareCursors");
        cursors.textProperty().bind(Bindings.createStringBinding(() -> "A op " + vm.a().cursor() + "   B op "
                + vm.b().cursor() + (vm.linkedOpBProperty().get() >= 0
                        ? "   A's event is at B op " + vm.linkedOpBProperty().get() : "   A's event: not near B's cursor"),
                vm.a().cursorProperty(), vm.b().cursorProperty(), vm.linkedOpBProperty()));
        javafx.scene.control.ToggleButton link = new javafx.scene.control.ToggleButton("link cursor & zoom");
        link.setId("compareLink");
        link.setTooltip(new Tooltip("B's cursor follows A's (to the op holding A's event when one is near) and the two zoom together"));
        link.setFocusTraversable(false);
        link.selectedProperty().bindBidirectional(vm.linkCursorsProperty());
        ToolBar bar = new ToolBar(back, fwd, divergence, byVt, link, cursors);
        wire(timelineA, vm.a(), vm.divergenceOpAProperty(), palette, "compareTimelineA");
        wire(timelineB, vm.b(), vm.divergenceOpBProperty(), palette, "compareTimelineB");
        // A: the first differing delivery; B: that delivery and the op holding A's cursor event.
        timelineA.highlightsProperty().bind(Bindings.createObjectBinding(() -> ops(vm.effectOpAProperty().get()),
                vm.effectOpAProperty()));
        timelineB.highlightsProperty().bind(Bindings.createObjectBinding(
                () -> ops(vm.effectOpBProperty().get(), vm.linkedOpBProperty().get()),
                vm.effectOpBProperty(), vm.linkedOpBProperty()));
        linkZoom(timelineA, timelineB);
        linkZoom(timelineB, timelineA);
        Label labelA = header("A  " + vm.a().path());
        Label labelB = header("B  " + vm.b().path());
        root = new VBox(4, bar, headline, schedule, report, labelA, timelineA, labelB, timelineB);
        root.setPadding(new Insets(4));
        VBox.setVgrow(timelineA, Priority.ALWAYS);
        VBox.setVgrow(timelineB, Priority.ALWAYS);
    }

    private static void wire(TimelineView t, DocumentViewModel d, javafx.beans.value.ObservableIntegerValue divergence,
            ObservableValue<TimelinePalette> palette, String id) {
        t.setId(id);
        t.setModel(d.timeline());
        t.paletteProperty().bind(palette);
        t.cursorOpProperty().bindBidirectional(d.cursorProperty());
        t.errorOpProperty().bind(divergence);
        t.setMinHeight(120);
    }

    private boolean syncingZoom;

    /** While linked, a zoom or pan of one timeline shows the same window on the other. */
    private void linkZoom(TimelineView from, TimelineView to) {
        from.windowProperty().addListener((o, was, w) -> {
            if (syncingZoom || !vm.linkCursorsProperty().get()) return;
            syncingZoom = true;
            try {
                to.showWindow(w[0], w[1]);
            } finally {
                syncingZoom = false;
            }
        });
    }

    private static int[] ops(int... candidates) {
        return java.util.Arrays.stream(candidates).filter(op -> op >= 0).distinct().sorted().toArray();
    }

    private static Label header(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("panel-header");
        return l;
    }


    public Node node() { return root; }
    public CompareViewModel viewModel() { return vm; }
    public TimelineView timelineA() { return timelineA; }
    public TimelineView timelineB() { return timelineB; }
}
