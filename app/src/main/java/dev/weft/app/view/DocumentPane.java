package dev.weft.app.view;

import dev.weft.app.source.Verification;
import dev.weft.app.source.ViolationInfo;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.FilterViewModel;
import dev.weft.app.vm.InspectorViewModel;
import dev.weft.app.vm.SearchViewModel;
import dev.weft.app.vm.StateViewModel;
import dev.weft.app.vm.SummaryViewModel;
import dev.weft.app.vm.TaskRunner;
import dev.weft.timeline.TimelineView;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.VBox;

import java.util.function.Supplier;

/**
 * Everything shown for one open recording: summary tiles, filter bar, the timeline, the event table and
 * the state / inspector / invariants tabs, all following the document's one cursor and selection.
 */
final class DocumentPane {

    private final BorderPane root = new BorderPane();
    private final DocumentViewModel doc;
    private final TimelineView timeline = new TimelineView();
    private final FilterBar filterBar;
    private final SearchViewModel search;
    private final SplitPane vertical;
    private final SplitPane horizontal;
    private final TabPane tabs;

    DocumentPane(DocumentViewModel doc, TaskRunner runner) {
        this.doc = doc;
        FilterViewModel filter = new FilterViewModel(doc, runner);
        search = new SearchViewModel(doc, filter, runner);
        StateViewModel state = new StateViewModel(doc, runner);
        InspectorViewModel inspector = new InspectorViewModel(doc, runner);
        SummaryViewModel summary = new SummaryViewModel(doc);

        timeline.setId("timeline");
        timeline.setModel(doc.source().timeline());
        timeline.cursorOpProperty().set(doc.cursor());
        timeline.cursorOpProperty().addListener((o, a, b) -> {
            if (b.intValue() >= 0 && b.intValue() != doc.cursor()) doc.goTo(b.intValue());
        });
        timeline.selectedOpProperty().addListener((o, a, b) -> {
            if (b.intValue() >= 0 && b.intValue() != doc.selectionProperty().get()) doc.selectionProperty().set(b.intValue());
        });
        doc.cursorProperty().addListener((o, a, b) -> {
            timeline.cursorOpProperty().set(b.intValue());
            timeline.reveal(b.intValue());
        });
        doc.selectionProperty().addListener((o, a, b) -> timeline.selectedOpProperty().set(b.intValue()));
        timeline.selectedOpProperty().set(doc.selectionProperty().get());
        timeline.hiddenKindsProperty().bind(filter.hiddenKindsProperty());
        filter.hiddenLanes().addListener((javafx.collections.SetChangeListener<Integer>) c -> {
            if (c.wasAdded()) timeline.getHiddenLanes().add(c.getElementAdded());
            if (c.wasRemoved()) timeline.getHiddenLanes().remove(c.getElementRemoved());
        });
        // An op or vt range filter narrows the timeline to that range (node and kind filters hide lanes/marks).
        Runnable showRange = () -> {
            var m = doc.source().timeline();
            if (m.size() == 0) return;
            long from = filter.opFromProperty().get() == null ? 0 : filter.opFromProperty().get();
            long to = filter.opToProperty().get() == null ? m.size() - 1 : filter.opToProperty().get();
            if (filter.vtFromProperty().get() != null) from = Math.max(from, m.firstOpAtOrAfterVt(filter.vtFromProperty().get()));
            if (filter.vtToProperty().get() != null) {
                long v = filter.vtToProperty().get();
                to = Math.min(to, v == -1 ? m.size() - 1 : m.firstOpAtOrAfterVt(v + 1) - 1);
            }
            if (from <= to && from < m.size()) timeline.showOps((int) from, (int) Math.min(m.size(), to + 1));
        };
        for (var p : java.util.List.of(filter.opFromProperty(), filter.opToProperty(), filter.vtFromProperty(), filter.vtToProperty())) {
            p.addListener(o -> showRange.run());
        }
        doc.violations().addListener((javafx.collections.ListChangeListener<ViolationInfo>) c ->
                timeline.markersProperty().set(doc.violations().stream().mapToInt(v -> (int) v.op()).toArray()));
        Verification v = doc.verification();
        if (!v.ok()) timeline.errorOpProperty().set((int) Math.min(Integer.MAX_VALUE, Math.max(0, v.badOp())));
        ContextMenu timelineMenu = copyMenu(doc::reproduceCommand);
        timeline.setOnContextMenuRequested(e -> timelineMenu.show(timeline, e.getScreenX(), e.getScreenY()));

        EventTablePane table = new EventTablePane(doc, filter);
        table.node().setContextMenu(copyMenu(doc::reproduceCommand));
        tabs = new TabPane(
                tab("State", new StatePane(state).node()),
                tab("Inspector", new InspectorPane(inspector).node()),
                tab("Invariants", new InvariantsPane(doc).node()));
        tabs.setId("detailTabs");
        var reports = doc.source().reports();
        if (reports.size() > 0 && reports.looksLikeRaft()) {
            dev.weft.timeline.RaftTermsView terms = new dev.weft.timeline.RaftTermsView();
            terms.reportsProperty().set(reports);
            terms.cursorOpProperty().bind(doc.cursorProperty());
            terms.paletteProperty().bind(timeline.paletteProperty());
            tabs.getTabs().add(tab("Raft terms", terms));
        } else if (reports.size() > 0) {
            dev.weft.timeline.ChordRingView ring = new dev.weft.timeline.ChordRingView();
            ring.reportsProperty().set(reports);
            ring.cursorOpProperty().bind(doc.cursorProperty());
            ring.paletteProperty().bind(timeline.paletteProperty());
            tabs.getTabs().add(tab("Chord ring", ring));
        }
        horizontal = new SplitPane(table.node(), tabs);
        horizontal.setDividerPositions(0.55);
        vertical = new SplitPane(timeline, horizontal);
        vertical.setOrientation(javafx.geometry.Orientation.VERTICAL);
        vertical.setDividerPositions(0.42);

        filterBar = new FilterBar(doc.source().timeline(), filter, search);
        VBox top = new VBox(4);
        top.getChildren().add(new SummaryTiles(doc, summary).node());
        if (!v.ok()) top.getChildren().add(errorBanner(doc, v));
        top.getChildren().add(filterBar.node());
        root.setTop(top);
        root.setCenter(vertical);
        root.getStyleClass().add("document-pane");
        timeline.reveal(doc.cursor());
    }

    private static Tab tab(String name, javafx.scene.Node content) {
        Tab t = new Tab(name, content);
        t.setClosable(false);
        return t;
    }

    /** The red banner of a log that failed to verify or diverged: what, where, and that it shows a prefix. */
    private static Label errorBanner(DocumentViewModel doc, Verification v) {
        String where = v.line() > 0 ? ", line " + v.line() : "";
        String what = v.status() == Verification.Status.DIVERGED ? "replay diverged" : "log failed to verify";
        Label l = new Label("✗ " + what + " — " + doc.source().path() + where + ": " + v.message()
                + "   (showing the " + doc.size() + " record(s) before op " + v.badOp() + ")");
        l.setId("errorBanner");
        l.getStyleClass().add("error-banner");
        l.setMaxWidth(Double.MAX_VALUE);
        l.setWrapText(true);
        return l;
    }

    static ContextMenu copyMenu(Supplier<String> command) {
        MenuItem copy = new MenuItem("Copy as command");
        copy.setOnAction(e -> copyToClipboard(command.get()));
        return new ContextMenu(copy);
    }

    static void copyToClipboard(String text) {
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
    }

    BorderPane node() { return root; }
    DocumentViewModel document() { return doc; }
    TimelineView timeline() { return timeline; }
    SearchViewModel search() { return search; }
    FilterBar filterBar() { return filterBar; }
    SplitPane verticalSplit() { return vertical; }
    SplitPane horizontalSplit() { return horizontal; }
    TabPane tabs() { return tabs; }
}
