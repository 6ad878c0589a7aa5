package dev.weft.app.view;

import dev.weft.app.source.Verification;
import dev.weft.app.source.ViolationInfo;
import dev.weft.app.source.PlanEdit;
import dev.weft.app.vm.Bookmarks;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.FilterViewModel;
import dev.weft.app.vm.InspectorViewModel;
import dev.weft.app.vm.RangeViewModel;
import dev.weft.app.vm.ReproCommand;
import dev.weft.app.vm.SearchViewModel;
import dev.weft.app.vm.StateViewModel;
import dev.weft.app.vm.SummaryViewModel;
import dev.weft.app.vm.TaskRunner;
import dev.weft.app.vm.ViolationBarViewModel;
import dev.weft.timeline.ProtocolView;
import dev.weft.timeline.ProtocolViewContext;
import dev.weft.timeline.ProtocolViews;
import dev.weft.timeline.TimelineView;
import javafx.scene.control.Button;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Label;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextInputDialog;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

import java.util.function.IntSupplier;

/**
 * Everything shown for one open recording: summary tiles, the violation bar, the range bar, the filter bar,
 * the timeline with its legend, the event table and the state / inspector / invariants / bookmarks / protocol
 * tabs, all following the document's one cursor and selection.
 */
final class DocumentPane {

    private final BorderPane root = new BorderPane();
    private final DocumentViewModel doc;
    private final TimelineView timeline = new TimelineView();
    private final FilterBar filterBar;
    private final SearchViewModel search;
    private final FilterViewModel filter;
    private final RangeViewModel range;
    private final Bookmarks bookmarks;
    private final ViolationBarViewModel violationBar;
    private final SplitPane vertical;
    private final SplitPane horizontal;
    private final TabPane tabs;
    private final Tab inspectorTab;
    private final Tab invariantsTab;
    private final Tab findingsTab;
    /** The plan beside the recording and its tab, or null. */
    private dev.weft.app.vm.PlanViewModel plan;
    private final dev.weft.app.vm.WhatIfViewModel whatIf;
    private PlanPane planPane;
    /** The protocol tab's view (registered by the protocol the recording speaks), or null without one. */
    private javafx.scene.layout.Region protocolView;

    DocumentPane(DocumentViewModel doc, TaskRunner runner) {
        this.doc = doc;
        filter = new FilterViewModel(doc, runner);
        search = new SearchViewModel(doc, filter, runner);
        range = new RangeViewModel(doc, filter);
        bookmarks = new Bookmarks(doc.path());
        violationBar = new ViolationBarViewModel(doc);
        StateViewModel state = new StateViewModel(doc, runner);
        InspectorViewModel inspector = new InspectorViewModel(doc, runner);
        SummaryViewModel summary = new SummaryViewModel(doc);

        whatIf = new dev.weft.app.vm.WhatIfViewModel(doc, runner, System.getenv());
        bindTimeline();
        EventTablePane table = new EventTablePane(doc, filter);
        table.node().setContextMenu(eventMenu(() -> doc.selectionProperty().get()));
        inspectorTab = tab("Inspector", new InspectorPane(inspector).node());
        invariantsTab = tab("Invariants", new InvariantsPane(doc).node());
        findingsTab = tab("Findings", new FindingsPane(doc).node());
        tabs = new TabPane(
                tab("State", new StatePane(state).node()),
                inspectorTab,
                findingsTab,
                invariantsTab,
                tab("Bookmarks", new BookmarksPane(doc, bookmarks).node()));
        tabs.setId("detailTabs");
        addProtocolTab();
        addHistoryTab();
        addPlanTab(runner);
        horizontal = new SplitPane(table.node(), tabs);
        horizontal.setDividerPositions(0.55);
        var legend = Legend.node();
        legend.tcpProperty().set(doc.timeline().hasTcp());
        legend.paletteProperty().bind(timeline.paletteProperty());
        // The range bar overlays the overview strip at the timeline's foot: it comes and goes without moving anything.
        HBox rangeBar = rangeBar();
        javafx.scene.layout.StackPane timelineStack = new javafx.scene.layout.StackPane(timeline, rangeBar);
        javafx.scene.layout.StackPane.setAlignment(rangeBar, javafx.geometry.Pos.BOTTOM_LEFT);
        rangeBar.setMaxHeight(Region.USE_PREF_SIZE);
        VBox timelineBox = new VBox(timelineStack, legend);
        VBox.setVgrow(timelineStack, Priority.ALWAYS);
        // The legend is never cut: it wraps at the width it has (a FlowPane's preferred height is otherwise taken at a
        // 400 px wrap), and that height is its minimum, so the split pane shrinks the lanes (which scroll) instead.
        legend.prefWrapLengthProperty().bind(javafx.beans.binding.Bindings.createDoubleBinding(
                () -> Math.max(100, timelineBox.getWidth() - legend.snappedLeftInset() - legend.snappedRightInset()),
                timelineBox.widthProperty(), legend.insetsProperty()));
        legend.setMinHeight(Region.USE_PREF_SIZE);
        vertical = new SplitPane(timelineBox, horizontal);
        vertical.setOrientation(javafx.geometry.Orientation.VERTICAL);
        vertical.setDividerPositions(0.42);

        filterBar = new FilterBar(doc.timeline(), filter, search);
        VBox top = new VBox(4);
        top.getChildren().add(new SummaryTiles(doc, summary).node());
        Verification v = doc.verification();
        if (!v.ok()) top.getChildren().add(errorBanner(doc, v));
        top.getChildren().addAll(violationBar(), whatIfBar(), filterBar.node());
        root.setTop(top);
        root.setCenter(vertical);
        root.getStyleClass().add("document-pane");
        timeline.reveal(doc.cursor());
    }

    /** The split between the timeline (with its legend) and the tables (for tests). */
    SplitPane vertical() {
        return vertical;
    }

    /** The legend under the timeline (for tests). */
    javafx.scene.layout.FlowPane legend() {
        return (javafx.scene.layout.FlowPane) vertical.getItems().get(0).lookup("#timelineLegend");
    }

    private void bindTimeline() {
        timeline.setId("timeline");
        timeline.setModel(doc.timeline());
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
        // Every filter narrows the timeline too: the ops it leaves are the only ones drawn.
        timeline.shownOpsProperty().bind(filter.shownOpsProperty());
        timeline.highlightsProperty().bind(search.matchesProperty());
        // An op or vt range filter also zooms the timeline to that range.
        Runnable showRange = () -> {
            var m = doc.timeline();
            if (m.size() == 0) return;
            long from = filter.opFromProperty().get() == null ? 0 : filter.opFromProperty().get();
            long to = filter.opToProperty().get() == null ? m.size() - 1 : filter.opToProperty().get();
            if (filter.vtFromProperty().get() != null) from = Math.max(from, m.firstOpNotBeforeVt(filter.vtFromProperty().get()));
            if (filter.vtToProperty().get() != null) {
                long vt = filter.vtToProperty().get();
                to = Math.min(to, vt == -1 ? m.size() - 1 : m.firstOpNotBeforeVt(vt + 1) - 1);
            }
            if (from <= to && from < m.size()) timeline.showOps((int) from, (int) Math.min(m.size(), to + 1));
        };
        for (var p : java.util.List.of(filter.opFromProperty(), filter.opToProperty(), filter.vtFromProperty(), filter.vtToProperty())) {
            p.addListener(o -> showRange.run());
        }
        Runnable markers = () -> {
            timeline.markersProperty().set(doc.violations().stream().mapToInt(x -> (int) x.op()).toArray());
            timeline.verdictMarkersProperty().set(doc.findings().stream().filter(f -> f.kind().verdict())
                    .mapToInt(f -> (int) f.op()).sorted().toArray());
            timeline.suppressedMarkersProperty().set(doc.recordedViolationOpsHidden());
        };
        doc.violations().addListener((javafx.collections.ListChangeListener<ViolationInfo>) c -> markers.run());
        doc.findings().addListener((javafx.collections.ListChangeListener<dev.weft.findings.Finding>) c -> markers.run());
        doc.selectedInvariants().addListener((javafx.collections.ListChangeListener<String>) c -> markers.run());
        markers.run();
        Verification v = doc.verification();
        if (!v.ok()) timeline.errorOpProperty().set((int) Math.min(Integer.MAX_VALUE, Math.max(0, v.badOp())));
        range.rangeProperty().bindBidirectional(timeline.rangeProperty());
        timeline.bookmarksProperty().set(bookmarks.ops());
        bookmarks.items().addListener((javafx.collections.ListChangeListener<Bookmarks.Bookmark>) c -> timeline.bookmarksProperty().set(bookmarks.ops()));
        timeline.measureOpProperty().addListener((o, a, b) -> {
            int s = doc.selectionProperty().get();
            if (b.intValue() >= 0 && s >= 0) doc.messageProperty().set("measured op " + s + " → op " + b + ": " + doc.timeline().measure(s, b.intValue()));
        });
        ContextMenu timelineMenu = eventMenu(() -> timeline.hoveredOpProperty().get() >= 0 ? timeline.hoveredOpProperty().get() : doc.cursor());
        timeline.setOnContextMenuRequested(e -> timelineMenu.show(timeline, e.getScreenX(), e.getScreenY()));
    }

    private void addProtocolTab() {
        var protocol = doc.protocol();
        ProtocolView view = protocol.protocol() == null ? null : ProtocolViews.of(protocol.protocol().name());
        if (view != null) {
            protocolView = view.create(new ProtocolViewContext(protocol.result(), doc.reports(), doc.cursorProperty(),
                    timeline.paletteProperty(), doc::nodeOfReporter, doc::addressOfReporter));
            tabs.getTabs().add(tab(view.title(), protocolView));
        }
        // At a protocol violation, show the protocol tab: that is where the picture of the bug is (but leave the
        // Invariants list in place when that is where the jump came from).
        doc.violationAtCursorProperty().addListener((o, a, i) -> {
            int k = i.intValue();
            if (k < 0 || k >= doc.violations().size() || tabs.getSelectionModel().getSelectedItem() == invariantsTab) return;
            if (protocol.names().contains(doc.violations().get(k).invariant())) tabs.getSelectionModel().select(tabs.getTabs().size() - 1);
        });
    }

    /** The History tab, when weft run wrote a history beside the recording (docs/history.md). */
    private void addHistoryTab() {
        var history = doc.history();
        if (history != null) {
            tabs.getTabs().add(tab("History", new HistoryPane(doc, history).node()));
        }
    }

    /** The Plan tab, when a fault plan lies beside the recording (docs/fault-plans.md); shown first, it is the point. */
    private void addPlanTab(TaskRunner runner) {
        plan = dev.weft.app.vm.PlanViewModel.load(doc, runner);
        if (plan == null) return;
        planPane = new PlanPane(plan);
        Tab t = tab("Plan", planPane.node());
        t.setId("planTab");
        tabs.getTabs().add(t);
        tabs.getSelectionModel().select(t);
        timeline.planMarksProperty().bind(plan.markersProperty());
    }

    /** A bar's text (id, bound to value), taking the width the bar's other parts leave. */
    private static Label barText(String id, javafx.beans.value.ObservableValue<String> value) {
        Label text = new Label();
        text.setId(id);
        text.textProperty().bind(value);
        text.setMaxWidth(Double.MAX_VALUE);
        HBox.setHgrow(text, Priority.ALWAYS);
        return text;
    }

    private HBox violationBar() {
        Label name = new Label();
        name.getStyleClass().add("violation-name");
        name.setId("violationBarName");
        name.textProperty().bind(violationBar.invariantProperty());
        Label text = barText("violationBarText", violationBar.explanationProperty());
        text.setTooltip(new javafx.scene.control.Tooltip());
        text.getTooltip().textProperty().bind(violationBar.explanationProperty());
        Label pos = new Label();
        pos.setId("violationBarPosition");
        pos.textProperty().bind(violationBar.positionProperty());
        Button prev = new Button("◀ prev");
        prev.setOnAction(e -> violationBar.previous());
        prev.setFocusTraversable(false);
        Button next = new Button("next ▶");
        next.setOnAction(e -> violationBar.next());
        next.setFocusTraversable(false);
        for (javafx.scene.control.Control c : new javafx.scene.control.Control[] {name, pos, prev, next}) c.setMinWidth(Region.USE_PREF_SIZE);
        Label mark = new Label("✗");
        HBox bar = new HBox(10, mark, name, text, pos, prev, next);
        bar.getStyleClass().add("violation-bar");
        bar.setId("violationBar");
        // Always in the layout (so the timeline below never moves): on a finding it names it; elsewhere it says how
        // many there are, dimmed, and next ▶ goes to the most severe; with none it is empty.
        Runnable style = () -> {
            boolean on = violationBar.visibleProperty().get();
            bar.getStyleClass().removeAll("violation-bar-idle");
            if (!on) bar.getStyleClass().add("violation-bar-idle");
            mark.setVisible(on);
            boolean any = !doc.findings().isEmpty();
            prev.setVisible(any);
            next.setVisible(any);
        };
        violationBar.visibleProperty().addListener(o -> style.run());
        doc.findings().addListener((javafx.collections.ListChangeListener<dev.weft.findings.Finding>) c -> style.run());
        style.run();
        text.setWrapText(false);
        text.setTextOverrun(javafx.scene.control.OverrunStyle.ELLIPSIS);
        bar.setMinHeight(30);
        bar.setPrefHeight(30);
        bar.setMaxHeight(30);
        return bar;
    }

    /** "what if …: re-running… N records  [Cancel]": shown from the first what-if on, Cancel while it runs. */
    private HBox whatIfBar() {
        Label text = barText("whatIfStatus", whatIf.statusProperty());
        text.setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
        Button cancel = new Button("Cancel");
        cancel.setId("whatIfCancel");
        cancel.setOnAction(e -> whatIf.cancel());
        cancel.visibleProperty().bind(whatIf.runningProperty());
        cancel.managedProperty().bind(cancel.visibleProperty());
        javafx.scene.control.ProgressIndicator spin = new javafx.scene.control.ProgressIndicator();
        spin.setPrefSize(16, 16);
        spin.visibleProperty().bind(whatIf.runningProperty());
        spin.managedProperty().bind(spin.visibleProperty());
        HBox bar = new HBox(8, spin, text, cancel);
        bar.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        bar.getStyleClass().add("what-if-bar");
        bar.setId("whatIfBar");
        bar.visibleProperty().bind(whatIf.statusProperty().isNotEmpty());
        bar.managedProperty().bind(bar.visibleProperty());
        return bar;
    }

    private HBox rangeBar() {
        Label text = barText("rangeText", range.textProperty());
        Button zoom = new Button("Zoom to range");
        zoom.setOnAction(e -> timeline.zoomToRange());
        Button filterTo = new Button("Filter to range");
        filterTo.setOnAction(e -> range.filterToRange());
        Button clear = new Button("✕");
        clear.setOnAction(e -> range.clear());
        HBox bar = new HBox(8, new Label("range"), text, zoom, filterTo, clear);
        bar.getStyleClass().add("range-bar");
        bar.setId("rangeBar");
        var shown = range.statsProperty().isNotNull();
        bar.visibleProperty().bind(shown);
        return bar;
    }

    /** Right-click menu for the event under the pointer (or the selection). */
    private ContextMenu eventMenu(IntSupplier opOf) {
        ContextMenu menu = new ContextMenu();
        MenuItem json = new MenuItem("Copy event JSON");
        MenuItem until = new MenuItem("Copy `weft replay … --until N`");
        MenuItem mark = new MenuItem("Bookmark…");
        MenuItem inspect = new MenuItem("Show in inspector");
        MenuItem command = new MenuItem("Copy as command (at the cursor)");
        int[] target = {-1};
        json.setOnAction(e -> {
            if (target[0] >= 0) copyToClipboard(doc.canonicalJson(target[0]));
        });
        until.setOnAction(e -> {
            if (target[0] >= 0) copyToClipboard(ReproCommand.replay(doc.path(), target[0], doc.selectedInvariants()));
        });
        mark.setOnAction(e -> {
            if (target[0] >= 0) askBookmark(target[0]);
        });
        inspect.setOnAction(e -> {
            if (target[0] >= 0) {
                doc.selectionProperty().set(target[0]);
                tabs.getSelectionModel().select(inspectorTab);
            }
        });
        command.setOnAction(e -> copyToClipboard(doc.reproduceCommand()));
        javafx.scene.control.Menu what = new javafx.scene.control.Menu("What if?");
        what.setId("whatIfMenu");
        MenuItem drop = new MenuItem("Re-run with this datagram dropped");
        MenuItem baseline = new MenuItem("Re-run with this datagram delivered at the baseline");
        MenuItem delay = new MenuItem("Re-run with this datagram delayed by…");
        MenuItem why = new MenuItem();
        why.setDisable(true);
        what.getItems().addAll(drop, baseline, delay, why);
        menu.setOnShowing(e -> {
            target[0] = opOf.getAsInt();
            String no = whatIf.unavailable(target[0]);
            var d = no == null ? whatIf.datagramAt(target[0]) : null;
            for (MenuItem m : java.util.List.of(drop, baseline, delay)) m.setDisable(no != null);
            why.setText(no != null ? "(" + no + ")" : whatIf.describe(d));
        });
        drop.setOnAction(e -> whatIf.start(target[0], PlanEdit.Change.DROP, 0));
        baseline.setOnAction(e -> whatIf.start(target[0], PlanEdit.Change.BASELINE, 0));
        delay.setOnAction(e -> askDelay(target[0]));
        menu.getItems().addAll(json, until, mark, inspect, new SeparatorMenuItem(), command, new SeparatorMenuItem(), what);
        return menu;
    }

    /** Asks how much later the datagram should arrive (ns), then re-runs. */
    private void askDelay(int op) {
        TextInputDialog d = new TextInputDialog("100000");
        d.setTitle("What if? — delay");
        d.setHeaderText("Deliver " + whatIf.datagramAt(op).text() + " this many ns later than it was");
        d.showAndWait().ifPresent(text -> {
            try {
                long ns = Long.parseUnsignedLong(text.strip().replace("_", ""));
                whatIf.start(op, PlanEdit.Change.DELAY, ns);
            } catch (NumberFormatException ex) {
                doc.messageProperty().set("what if: \"" + text.strip() + "\" is not a number of nanoseconds");
            }
        });
    }

    /** Who compares this recording with a what-if's new one (the main window opens the comparison tab). */
    void setOnWhatIfRecorded(java.util.function.BiConsumer<DocumentViewModel, java.nio.file.Path> compare) {
        whatIf.setOnRecorded(compare);
    }

    dev.weft.app.vm.WhatIfViewModel whatIf() { return whatIf; }

    /** Asks for a note and bookmarks op (Ctrl+B, the context menu). */
    void askBookmark(int op) {
        TextInputDialog d = new TextInputDialog();
        d.setTitle("Bookmark op " + op);
        d.setHeaderText("A note for op " + op + " (kept in " + Bookmarks.sidecarOf(doc.path()).getFileName() + ", beside the recording)");
        d.showAndWait().ifPresent(note -> {
            bookmarks.put(op, note);
            if (!bookmarks.lastError().isEmpty()) doc.messageProperty().set(bookmarks.lastError());
        });
    }

    private static Tab tab(String name, javafx.scene.Node content) {
        Tab t = new Tab(name, content);
        t.setClosable(false);
        return t;
    }

    /** The red banner of a log that failed to verify or diverged: what, where, and that it shows a prefix. */
    static Label errorBanner(DocumentViewModel doc, Verification v) {
        Label l = new Label(bannerText(doc.path(), doc.size(), v));
        l.setId("errorBanner");
        l.getStyleClass().add("error-banner");
        l.setMaxWidth(Double.MAX_VALUE);
        l.setWrapText(true);
        return l;
    }

    /** The banner's words; the line is named once even when the reader's message already starts with it. */
    static String bannerText(java.nio.file.Path path, int size, Verification v) {
        String message = v.message();
        String prefix = "line " + v.line() + ": ";
        if (v.line() > 0 && message.startsWith(prefix)) message = message.substring(prefix.length());
        String readingSuffix = " (reading line " + v.line() + ")"; // how the reader places an I/O error
        if (v.line() > 0 && message.endsWith(readingSuffix)) message = message.substring(0, message.length() - readingSuffix.length());
        String where = v.line() > 0 ? ", line " + v.line() : "";
        String what = v.status() == Verification.Status.DIVERGED ? "replay diverged" : "log failed to verify";
        return "✗ " + what + " — " + path + where + ": " + message + "   (showing the " + size + " record(s) before op " + v.badOp() + ")";
    }

    /**
     * Takes over from the pane of the same recording before it grew (a followed recording): the filters and search,
     * the splits, the detail tab and the timeline's window. A window that showed everything keeps showing everything; one at the latest op while
     * the cursor is pinned there moves on with it, keeping its width; any other stays where it was.
     */
    void continueFrom(DocumentPane before) {
        filterBar.continueFrom(before.filterBar);
        vertical.setDividerPositions(before.vertical.getDividerPositions());
        horizontal.setDividerPositions(before.horizontal.getDividerPositions());
        tabs.getSelectionModel().select(Math.min(tabs.getTabs().size() - 1, before.tabs.getSelectionModel().getSelectedIndex()));
        int oldSize = before.doc.size();
        int[] shown = before.timeline.visibleOps();
        boolean showedAll = shown[0] <= 0 && shown[1] >= oldSize;
        if (showedAll || doc.size() == 0) return;
        int width = Math.max(1, shown[1] - shown[0]);
        boolean atLatest = doc.cursor() >= doc.size() - 1;
        if (atLatest) timeline.showOps(doc.size() - width, doc.size());
        else timeline.showOps(shown[0], shown[1]);
    }

    static void copyToClipboard(String text) {
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
    }

    BorderPane node() { return root; }
    DocumentViewModel document() { return doc; }

    // the pane's controls
    TimelineView timeline() { return timeline; }
    /** The view of the protocol the recording speaks, or null. */
    javafx.scene.layout.Region protocolView() { return protocolView; }
    FilterBar filterBar() { return filterBar; }
    /** The Plan tab's table, or null when the recording has no plan beside it. */
    javafx.scene.control.TableView<dev.weft.app.vm.PlanViewModel.Row> planTable() { return planPane == null ? null : planPane.table(); }
    TabPane tabs() { return tabs; }

    /** Puts the dividers (timeline above the table; table beside the detail tabs) at the given fractions. */
    void placeDividers(double verticalAt, double horizontalAt) {
        vertical.setDividerPositions(verticalAt);
        horizontal.setDividerPositions(horizontalAt);
    }

    /** Where the divider under the timeline is, as a fraction of the pane's height. */
    double verticalDivider() { return vertical.getDividerPositions()[0]; }
    /** Where the divider between the table and the detail tabs is, as a fraction of the width. */
    double horizontalDivider() { return horizontal.getDividerPositions()[0]; }

    // the view models behind the bars and tabs
    SearchViewModel search() { return search; }
    FilterViewModel filter() { return filter; }
    RangeViewModel range() { return range; }
    Bookmarks bookmarks() { return bookmarks; }
}
