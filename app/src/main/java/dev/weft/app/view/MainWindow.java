package dev.weft.app.view;

import dev.weft.app.vm.CompareViewModel;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.OpenTabs;
import dev.weft.app.vm.EventLines;
import dev.weft.app.vm.WorkbenchViewModel;
import dev.weft.timeline.AxisMode;
import dev.weft.timeline.TimelinePalette;
import javafx.animation.AnimationTimer;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextField;
import javafx.scene.control.TextInputControl;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.TransferMode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Stage;

import java.io.File;
import java.nio.file.Path;
import java.util.Objects;

import static dev.weft.app.view.ToolButtons.button;

/**
 * The main window: menu, toolbar (stepping, go to op, play, violations, axis, theme, copy command), the
 * document area, and a status bar with the load progress and cancel. Thin: every action is a view-model
 * call; the window only wires keys, menus, drag-and-drop and the theme.
 */
public final class MainWindow {

    private final WorkbenchViewModel vm;
    private final BorderPane root = new BorderPane();
    private final StackPane center = new StackPane();
    private final Label status = new Label();
    private final Label hover = new Label();
    private final TextField goTo = new TextField();
    private final Menu recentMenu = new Menu("Open Recent");
    private final ToggleButton axisToggle = new ToggleButton("vt axis");
    private final ToggleButton play = new ToggleButton("▶ Play");
    private final ComboBox<Integer> speed = new ComboBox<>();
    private DocumentPane pane;
    private final OpenTabs tabs;
    private final TabPane tabBar = new TabPane();
    /** The comparison on screen (null when a recording is): the center shows its pane instead of a document. */
    private ComparePane comparePane;
    private final java.util.Map<CompareViewModel, ComparePane> comparePanes = new java.util.IdentityHashMap<>();
    private boolean syncingTabs;
    private Stage stage;
    private javafx.scene.Node keys;
    /** Toolbar buttons that only make sense with a document open (disabled on the welcome screen). */
    private final java.util.List<javafx.scene.Node> documentOnly = new java.util.ArrayList<>();
    /** Toolbar controls that also work while a file loads (on its preview, or remembered until it is open). */
    private final java.util.List<javafx.scene.Node> documentOrLoading = new java.util.ArrayList<>();
    private long lastTick;
    private final AnimationTimer playTimer;

    public MainWindow(WorkbenchViewModel vm) {
        this.vm = vm;
        root.getStyleClass().add("workbench");
        VBox top = new VBox(menuBar(), toolBar());
        root.setTop(top);
        tabs = new OpenTabs(vm);
        tabBar.setId("documentTabs");
        tabBar.setTabClosingPolicy(TabPane.TabClosingPolicy.ALL_TABS);
        tabBar.setMinHeight(Region.USE_PREF_SIZE);
        tabBar.setMaxHeight(Region.USE_PREF_SIZE);
        tabBar.visibleProperty().bind(javafx.beans.binding.Bindings.isNotEmpty(tabs.tabs()));
        tabBar.managedProperty().bind(tabBar.visibleProperty());
        tabs.tabs().addListener((javafx.collections.ListChangeListener<OpenTabs.Tab>) c -> syncTabBar());
        tabs.selectedProperty().addListener((o, a, t) -> showTab(t));
        tabBar.getSelectionModel().selectedItemProperty().addListener((o, a, t) -> {
            if (!syncingTabs && t != null) tabs.select((OpenTabs.Tab) t.getUserData());
        });
        VBox body = new VBox(tabBar, center);
        VBox.setVgrow(center, Priority.ALWAYS);
        root.setCenter(body);
        root.setBottom(statusBar());
        showWelcome();
        vm.documentProperty().addListener((o, a, d) -> {
            goTo.clear();   // an op typed for the last file means nothing for this one
            showDocument(d);
        });
        for (javafx.scene.Node n : documentOnly) n.disableProperty().bind(vm.documentProperty().isNull());
        for (javafx.scene.Node n : documentOrLoading) {
            n.disableProperty().bind(vm.documentProperty().isNull().and(vm.loadingProperty().not()));
        }
        play.textProperty().bind(Bindings.when(play.selectedProperty()).then("⏸ Pause").otherwise("▶ Play"));
        vm.errorProperty().addListener((o, a, e) -> {
            if (e != null && !e.isEmpty()) {
                status.setText("✗ " + e);
                if (vm.document() == null) showWelcome();
            }
        });
        vm.recentFiles().addListener((javafx.collections.ListChangeListener<Path>) c -> fillRecent());
        vm.previewProperty().addListener((o, a, m) -> {
            if (m != null) showPreview(m);
        });
        vm.loadingProperty().addListener((o, was, now) -> {
            if (!now && preview != null) showDocument(vm.document());   // load failed or was cancelled
        });
        fillRecent();
        // Runs only while playing: an always-on timer would request a pulse (and a repaint) 60 times a second.
        playTimer = new AnimationTimer() {
            @Override
            public void handle(long now) {
                DocumentViewModel d = vm.document();
                if (d == null || !d.playingProperty().get()) {
                    stop();
                    lastTick = 0;
                    return;
                }
                if (lastTick != 0) d.tick((now - lastTick) / 1e9);
                lastTick = now;
            }
        };
    }

    public Scene createScene(double width, double height) {
        keys = KeysOverlay.create();
        StackPane sceneRoot = new StackPane(root, keys);
        StackPane.setAlignment(keys, Pos.CENTER);
        Scene scene = new Scene(sceneRoot, width, height);
        applyTheme(scene, vm.themeProperty().get());
        vm.themeProperty().addListener((o, a, t) -> applyTheme(scene, t));
        scene.addEventFilter(KeyEvent.KEY_PRESSED, this::onKey);
        scene.addEventFilter(KeyEvent.KEY_TYPED, e -> {
            // "?" arrives as a typed character whatever the keyboard layout.
            if ("?".equals(e.getCharacter()) && !typing(e)) {
                toggleKeys();
                e.consume();
            }
        });
        scene.setOnDragOver(e -> {
            if (e.getDragboard().hasFiles()) e.acceptTransferModes(TransferMode.COPY);
            e.consume();
        });
        scene.setOnDragDropped(e -> {
            boolean ok = e.getDragboard().hasFiles() && !e.getDragboard().getFiles().isEmpty();
            if (ok) openAll(e.getDragboard().getFiles().stream().map(File::toPath).toList());
            e.setDropCompleted(ok);
            e.consume();
        });
        return scene;
    }

    public void attach(Stage stage) {
        this.stage = stage;
        stage.titleProperty().bind(Bindings.createStringBinding(() -> {
            DocumentViewModel d = vm.document();
            return d == null ? "Weft Workbench" : d.path().getFileName() + " — Weft Workbench";
        }, vm.documentProperty()));
    }

    public BorderPane root() { return root; }
    public DocumentPane documentPane() { return pane; }
    /** The open document's timeline, or null. */
    public dev.weft.timeline.TimelineView timeline() { return pane == null ? null : pane.timeline(); }

    public void open(Path file, Integer untilOp, java.util.function.Consumer<DocumentViewModel> onReady) {
        vm.open(file, untilOp, onReady);
    }

    /**
     * Opens each file in its own tab, one after the other: an open cancels the load before it, so the next
     * starts when the last is shown.
     */
    public void openAll(java.util.List<Path> files) {
        if (files.isEmpty()) return;
        open(files.get(0), null, d -> openAll(files.subList(1, files.size())));
    }

    /** Compares the current recording with another (a new tab); whenDone gets the comparison once computed. */
    public void compareWith(Path other, java.util.function.Consumer<CompareViewModel> whenDone) {
        tabs.compareWith(other, whenDone);
    }

    public OpenTabs tabs() { return tabs; }
    public TabPane tabBar() { return tabBar; }
    /** The comparison on screen, or null. */
    public ComparePane comparePane() { return comparePane; }

    /** Mirrors the open tabs in the tab bar (titles, order, selection). */
    private void syncTabBar() {
        syncingTabs = true;
        try {
            java.util.List<Tab> shown = new java.util.ArrayList<>();
            for (OpenTabs.Tab t : tabs.tabs()) {
                Tab tab = new Tab(t.title());
                tab.setUserData(t);
                tab.setTooltip(new Tooltip(t instanceof OpenTabs.DocumentTab d ? d.document().path().toString() : t.title()));
                tab.setOnCloseRequest(e -> {
                    e.consume();   // the view model decides what is left open
                    tabs.close(t);
                });
                shown.add(tab);
            }
            tabBar.getTabs().setAll(shown);
            selectInBar(tabs.selectedProperty().get());
        } finally {
            syncingTabs = false;
        }
        comparePanes.keySet().removeIf(c -> tabs.tabs().stream().noneMatch(t -> t instanceof OpenTabs.CompareTab ct && ct.compare() == c));
    }

    private void selectInBar(OpenTabs.Tab t) {
        for (Tab tab : tabBar.getTabs()) {
            if (tab.getUserData() == t) tabBar.getSelectionModel().select(tab);
        }
    }

    private void showTab(OpenTabs.Tab t) {
        boolean wasSyncing = syncingTabs;
        syncingTabs = true;
        try {
            selectInBar(t);
        } finally {
            syncingTabs = wasSyncing;
        }
        if (t instanceof OpenTabs.CompareTab c) {
            comparePane = comparePanes.computeIfAbsent(c.compare(), cm -> new ComparePane(cm, paletteBinding()));
            center.getChildren().setAll(comparePane.node());
        } else if (t instanceof OpenTabs.DocumentTab d && comparePane != null && vm.document() == d.document()) {
            showDocument(d.document());   // back from a comparison to the same recording
        }
    }

    private javafx.beans.binding.ObjectBinding<TimelinePalette> paletteBinding() {
        return Bindings.createObjectBinding(
                () -> vm.themeProperty().get() == WorkbenchViewModel.Theme.DARK ? TimelinePalette.DARK : TimelinePalette.LIGHT,
                vm.themeProperty());
    }

    private static void applyTheme(Scene scene, WorkbenchViewModel.Theme theme) {
        scene.getStylesheets().setAll(
                Objects.requireNonNull(MainWindow.class.getResource("workbench.css")).toExternalForm(),
                Objects.requireNonNull(MainWindow.class.getResource(theme == WorkbenchViewModel.Theme.DARK ? "dark.css" : "light.css")).toExternalForm());
    }

    private void showWelcome() {
        VBox box = new VBox(10);
        box.setAlignment(Pos.CENTER);
        box.getStyleClass().add("welcome");
        Label title = new Label("Weft Workbench");
        title.getStyleClass().add("welcome-title");
        Label hint = new Label("Open a recording (Ctrl+O) or drop a .weftlog / .weftlog.gz file here.");
        box.getChildren().addAll(title, hint);
        if (vm.errorProperty().get() != null && !vm.errorProperty().get().isEmpty()) {
            Label err = new Label("✗ " + vm.errorProperty().get());
            err.getStyleClass().add("error-banner");
            err.setId("openError");
            err.setWrapText(true);
            err.setMaxWidth(800);
            box.getChildren().add(err);
        }
        for (Path p : vm.recentFiles()) {
            Hyperlink link = new Hyperlink(p.toString());
            link.setOnAction(e -> open(p, null, null));
            box.getChildren().add(link);
        }
        center.getChildren().setAll(box);
    }

    /** While a big file loads: the part read so far, so the window is never blank. */
    private void showPreview(dev.weft.timeline.TimelineModel partial) {
        dev.weft.timeline.TimelineView t = new dev.weft.timeline.TimelineView();
        t.setId("previewTimeline");
        t.setModel(partial);
        t.paletteProperty().set(vm.themeProperty().get() == WorkbenchViewModel.Theme.DARK ? TimelinePalette.DARK : TimelinePalette.LIGHT);
        Label l = new Label("loading… showing the first " + partial.size() + " records");
        l.getStyleClass().add("panel-header");
        VBox box = new VBox(4, l, t);
        VBox.setVgrow(t, Priority.ALWAYS);
        center.getChildren().setAll(box);
        preview = t;
    }

    private dev.weft.timeline.TimelineView preview;

    /** The preview timeline shown while loading, or null (for the benchmark). */
    public dev.weft.timeline.TimelineView previewTimeline() { return preview; }

    private void showDocument(DocumentViewModel d) {
        preview = null;
        comparePane = null;
        if (d == null) {
            pane = null;
            showWelcome();
            return;
        }
        DocumentPane before = pane != null && d.grewFrom() == pane.document() ? pane : null;
        pane = new DocumentPane(d, vm.runner());
        pane.setOnWhatIfRecorded((original, log) -> tabs.compare(original, log, null));
        pane.timeline().paletteProperty().bind(Bindings.createObjectBinding(
                () -> vm.themeProperty().get() == WorkbenchViewModel.Theme.DARK ? TimelinePalette.DARK : TimelinePalette.LIGHT,
                vm.themeProperty()));
        pane.timeline().axisModeProperty().bind(Bindings.when(axisToggle.selectedProperty())
                .then(AxisMode.VIRTUAL_TIME).otherwise(AxisMode.OP));
        play.selectedProperty().bindBidirectional(d.playingProperty());
        d.playingProperty().addListener((o, was, now) -> {
            if (now) {
                lastTick = 0;
                playTimer.start();
            }
        });
        d.speedProperty().bind(Bindings.createDoubleBinding(() -> speed.getValue() == null ? 20.0 : speed.getValue(), speed.valueProperty()));
        status.textProperty().bind(d.messageProperty());
        // The hover line comes from the event-line cache (no file read on the FX thread); shown when it arrives.
        var hovered = pane.timeline().hoveredOpProperty();
        Runnable showHover = () -> {
            int op = hovered.get();
            String line = op >= 0 ? d.eventLines().lineOrRequest(op) : null;
            hover.setText(op < 0 ? "" : "op " + op + ": " + (line == null ? EventLines.PLACEHOLDER : line));
        };
        hovered.addListener(o -> showHover.run());
        d.eventLines().revisionProperty().addListener(o -> {
            if (hovered.get() >= 0 && hover.getText().endsWith(EventLines.PLACEHOLDER)) showHover.run();
        });
        double v = vm.settings().getDouble("split.vertical", 0.42);
        double h = vm.settings().getDouble("split.horizontal", 0.55);
        pane.placeDividers(v, h);
        if (before != null) pane.continueFrom(before);
        center.getChildren().setAll(pane.node());
        javafx.application.Platform.runLater(() -> pane.timeline().requestFocus());
    }

    /** Remembers window geometry and split positions (called when the window closes). */
    public void saveLayout() {
        if (stage != null) {
            vm.settings().putDouble("window.width", stage.getWidth());
            vm.settings().putDouble("window.height", stage.getHeight());
            vm.settings().putDouble("window.x", stage.getX());
            vm.settings().putDouble("window.y", stage.getY());
        }
        if (pane != null) {
            vm.settings().putDouble("split.vertical", pane.verticalDivider());
            vm.settings().putDouble("split.horizontal", pane.horizontalDivider());
        }
        vm.settings().save();
    }

    // ---- chrome -----------------------------------------------------------------------------------

    private MenuBar menuBar() {
        Menu file = new Menu("File");
        Menu export = new Menu("Export");
        export.getItems().addAll(
                item("View as PNG…", null, () -> withPane(p -> Exports.png(stage, p))),
                item("Selected range as CSV…", null, () -> withPane(p -> Exports.range(stage, p, true))),
                item("Selected range as JSON lines…", null, () -> withPane(p -> Exports.range(stage, p, false))),
                item("Recording as Perfetto trace (JSON)…", null, () -> withPane(p -> Exports.perfetto(stage, p))));
        file.getItems().addAll(
                item("Open…", "Shortcut+O", this::chooseFile),
                followItem(),
                item("Compare with…", "Shortcut+Shift+D", this::chooseCompare),
                recentMenu,
                export,
                new SeparatorMenuItem(),
                item("Copy as command", "Shortcut+Shift+C", this::copyCommand),
                new SeparatorMenuItem(),
                item("Quit", "Shortcut+Q", () -> {
                    saveLayout();
                    javafx.application.Platform.exit();
                }));
        Menu view = new Menu("View");
        view.getItems().addAll(
                item("Toggle dark theme", null, vm::toggleTheme),
                item("Switch x axis (op / virtual time)", "X", () -> axisToggle.setSelected(!axisToggle.isSelected())),
                item("Zoom in  (W, +)", "W", () -> withTimeline(dev.weft.timeline.TimelineView::zoomIn)),
                item("Zoom out  (S, −)", "S", () -> withTimeline(dev.weft.timeline.TimelineView::zoomOut)),
                item("Pan left", "A", () -> withPane(p -> p.timeline().panPixels(p.timeline().getViewport().width() * 0.25))),
                item("Pan right", "D", () -> withPane(p -> p.timeline().panPixels(-p.timeline().getViewport().width() * 0.25))),
                item("Fit all", "0", () -> withTimeline(dev.weft.timeline.TimelineView::fitAll)),
                item("Zoom to selected range", "Z", () -> withPane(p -> p.timeline().zoomToRange())),
                item("Clear range and measurement  (Esc)", null, this::clearRange));
        Menu go = new Menu("Go");
        go.getItems().addAll(
                item("Go to op…", "Shortcut+G", () -> goTo.requestFocus()),
                item("Step forward  (→, Shift: ×10)", null, () -> withDoc(d -> d.step(1))),
                item("Step back  (←, Shift: ×10)", null, () -> withDoc(d -> d.step(-1))),
                item("First op  (Home)", null, () -> withDoc(DocumentViewModel::home)),
                item("Last op  (End)", null, () -> withDoc(DocumentViewModel::end)),
                item("Next violation", "]", () -> withDoc(DocumentViewModel::nextViolation)),
                item("Previous violation", "[", () -> withDoc(DocumentViewModel::previousViolation)),
                item("Jump send ↔ delivery", "J", () -> withPane(p -> p.timeline().jumpToPartner())),
                item("Play / pause  (Space)", null, () -> withDoc(DocumentViewModel::togglePlay)),
                new SeparatorMenuItem(),
                item("Search…", "Shortcut+F", () -> withPane(p -> p.filterBar().searchField().requestFocus())),
                item("Next match", "F3", () -> withPane(p -> p.search().next())),
                item("Previous match", "Shift+F3", () -> withPane(p -> p.search().previous())),
                item("Bookmark this op…", "Shortcut+B", () -> withPane(p -> p.askBookmark(p.document().cursor()))));
        Menu help = new Menu("Help");
        help.getItems().addAll(
                item("Keys  (?)", "F1", this::toggleKeys),
                item("Documentation", null, () -> About.docs(stage)),
                item("About Weft Workbench", null, () -> About.show(stage)));
        for (Menu m : new Menu[] {view, go}) {
            for (MenuItem mi : m.getItems()) guardWhileTyping(mi);
        }
        return new MenuBar(file, view, go, toolsMenu(), help);
    }

    /** The run, fuzz and campaign panels (each in a window of its own; what they produce opens here as a tab). */
    private Menu toolsMenu() {
        Menu tools = new Menu("Tools");
        tools.getItems().addAll(
                item("Run…", "Shortcut+R", () -> toolWindows().showRun()),
                item("Fuzz…", "Shortcut+Shift+F", () -> toolWindows().showFuzz()),
                item("Campaign results…", null, () -> toolWindows().showCampaign(null)),
                item("Shrink…", null, () -> toolWindows().showShrink()));
        return tools;
    }

    private dev.weft.app.tools.ToolWindows toolWindows;

    /** The tool windows of this main window (created on first use). */
    public dev.weft.app.tools.ToolWindows toolWindows() {
        if (toolWindows == null) {
            toolWindows = new dev.weft.app.tools.ToolWindows(stage, vm.settings(), p -> open(p, null, null));
            // a run's recording grows in a tab while it is written, as File > Follow would show it
            toolWindows.setFollowRecording(vm::follow);
            // a campaign hit opens on its own finding (the checker's invariant), not on the recording's top one
            toolWindows.setOpenAtFinding((p, invariant) -> open(p, null, d -> d.goToFindingOf(invariant)));
        }
        return toolWindows;
    }

    /**
     * Plain-key accelerators (W, [, …) must not fire while a text field has the focus: the character is typed
     * instead (typing happens on KEY_TYPED, so it still arrives).
     */
    private void guardWhileTyping(MenuItem mi) {
        if (mi.getAccelerator() == null || mi.getAccelerator().getName().contains("Ctrl") || mi.getAccelerator().getName().startsWith("F")) return;
        var action = mi.getOnAction();
        mi.setOnAction(e -> {
            if (!typingNow()) action.handle(e);
        });
    }

    private boolean typingNow() {
        return root.getScene() != null && root.getScene().getFocusOwner() instanceof TextInputControl;
    }

    private boolean typing(KeyEvent e) {
        return e.getTarget() instanceof TextInputControl || typingNow();
    }

    private void clearRange() {
        withPane(p -> {
            p.range().clear();
            p.timeline().measureOpProperty().set(-1);
        });
    }

    void toggleKeys() {
        if (keys != null) keys.setVisible(!keys.isVisible());
    }

    /** The keys overlay (for tests). */
    public javafx.scene.Node keysOverlay() { return keys; }

    /**
     * The toolbar: a row of controls that wraps onto a second line when the window is narrow (1024 px), so every
     * control stays on screen and usable instead of hiding behind an overflow arrow. Styled as a tool bar.
     */
    private javafx.scene.layout.FlowPane toolBar() {
        Button open = button("Open…", "open a recording (Ctrl+O)", this::chooseFile);
        Button home = button("|◀", "first op (Home)", () -> withDoc(DocumentViewModel::home));
        Button back10 = button("◀◀", "back 10 ops (Shift+←)", () -> withDoc(d -> d.step(-10)));
        Button back = button("◀", "back one op (←)", () -> withDoc(d -> d.step(-1)));
        back.setId("stepBack");
        Button fwd = button("▶", "forward one op (→)", () -> withDoc(d -> d.step(1)));
        fwd.setId("stepForward");
        Button fwd10 = button("▶▶", "forward 10 ops (Shift+→)", () -> withDoc(d -> d.step(10)));
        Button end = button("▶|", "last op (End)", () -> withDoc(DocumentViewModel::end));
        goTo.setPromptText("go to op (Ctrl+G)");
        goTo.setId("goToField");
        goTo.setPrefColumnCount(9);
        goTo.setOnAction(e -> {
            // while the first file loads, the op is remembered and gone to once it is open
            if (vm.document() == null && vm.goToWhenLoaded(goTo.getText().strip())) {
                status.setText("op " + goTo.getText().strip() + ": going there once the recording is loaded");
                return;
            }
            withDoc(d -> {
                if (d.goTo(goTo.getText())) root.requestFocus();
            });
        });
        play.setId("play");
        play.setTooltip(new Tooltip("play / pause (Space)"));
        speed.getItems().addAll(1, 5, 20, 100, 1000, 10000);
        speed.setValue(20);
        speed.setTooltip(new Tooltip("play speed, ops per second"));
        Button prevV = button("◀ violation", "previous violation ([)", () -> withDoc(DocumentViewModel::previousViolation));
        Button nextV = button("violation ▶", "next violation (])", () -> withDoc(DocumentViewModel::nextViolation));
        nextV.setId("nextViolation");
        axisToggle.setTooltip(new Tooltip("x axis by virtual time instead of op"));
        axisToggle.setId("axisToggle");
        // these three also work on the preview shown while a file loads
        Button fit = button("Fit", "show the whole recording (0)", () -> withTimeline(dev.weft.timeline.TimelineView::fitAll));
        Button zin = button("+", "zoom in ×4 (W or +)", () -> withTimeline(dev.weft.timeline.TimelineView::zoomIn));
        Button zout = button("−", "zoom out ×4 (S or −)", () -> withTimeline(dev.weft.timeline.TimelineView::zoomOut));
        Button theme = button("◐", "light / dark theme", vm::toggleTheme);
        theme.setId("themeToggle");
        Button copy = button("Copy command", "copy the `weft replay … --until N` that reproduces this view", this::copyCommand);
        documentOnly.addAll(java.util.List.of(home, back10, back, fwd, fwd10, end, play, speed, prevV, nextV, axisToggle, copy));
        // usable while a file loads: zoom on its preview, and an op to go to once it is open
        documentOrLoading.addAll(java.util.List.of(goTo, zout, zin, fit));
        Button keysButton = button("?", "keys (? or F1)", this::toggleKeys);
        javafx.scene.layout.FlowPane bar = new javafx.scene.layout.FlowPane(4, 3, open, home, back10, back, fwd, fwd10, end, goTo,
                play, speed, prevV, nextV, axisToggle, zout, zin, fit, theme, copy, keysButton);
        bar.getStyleClass().add("tool-bar");
        bar.setId("toolBar");
        bar.setPadding(new Insets(4, 6, 4, 6));
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.setMinWidth(0);
        // Wrap at the window's width (a FlowPane in a VBox otherwise lays out as one long row).
        bar.prefWrapLengthProperty().bind(Bindings.createDoubleBinding(() -> Math.max(200, root.getWidth() - 12), root.widthProperty()));
        return bar;
    }

    private Node statusBar() {
        ProgressBar bar = new ProgressBar();
        // An unknown fraction (gzip) shows an empty bar and the record count, not the indeterminate
        // animation, which repaints every frame and slows the load it reports on.
        bar.progressProperty().bind(Bindings.createDoubleBinding(() -> Math.max(0, vm.progressProperty().get()), vm.progressProperty()));
        bar.setPrefWidth(160);
        Label progressText = new Label();
        progressText.textProperty().bind(vm.progressTextProperty());
        Button cancel = new Button("Cancel");
        cancel.setOnAction(e -> vm.cancelLoad());
        HBox loading = new HBox(6, progressText, bar, cancel);
        loading.setAlignment(Pos.CENTER_RIGHT);
        loading.visibleProperty().bind(vm.loadingProperty());
        loading.managedProperty().bind(vm.loadingProperty());
        status.setId("statusMessage");
        dev.weft.app.widgets.TableChrome.tooltipWhenCut(status);
        dev.weft.app.widgets.TableChrome.tooltipWhenCut(hover);
        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        HBox box = new HBox(12, status, spring, hover, followBar(), loading);
        box.setPadding(new Insets(3, 8, 3, 8));
        box.getStyleClass().add("status-bar");
        return box;
    }

    /** "● following x.weftlog — N records", the pin toggle and Stop, shown while a recording is followed. */
    private Node followBar() {
        Label text = new Label();
        text.setId("followStatus");
        text.getStyleClass().add("follow-status");
        ToggleButton pin = new ToggleButton("⤓ Pin to latest");
        pin.setId("followPin");
        pin.setTooltip(new Tooltip("keep the cursor on the latest op as records arrive (End pins, moving back unpins)"));
        Button stop = new Button("Stop following");
        stop.setId("followStop");
        HBox bar = new HBox(6, text, pin, stop);
        bar.setAlignment(Pos.CENTER_RIGHT);
        bar.setVisible(false);
        bar.managedProperty().bind(bar.visibleProperty());
        vm.followProperty().addListener((o, before, f) -> {
            if (before != null) pin.selectedProperty().unbindBidirectional(before.pinnedProperty());
            text.textProperty().unbind();
            bar.visibleProperty().unbind();
            if (f == null) {
                bar.setVisible(false);
                return;
            }
            text.textProperty().bind(Bindings.concat("● ", f.statusProperty()));
            pin.selectedProperty().bindBidirectional(f.pinnedProperty());
            bar.visibleProperty().bind(f.followingProperty());
            stop.setOnAction(e -> f.stop());
        });
        return bar;
    }

    private void fillRecent() {
        recentMenu.getItems().clear();
        for (Path p : vm.recentFiles()) {
            MenuItem mi = new MenuItem(p.toString());
            mi.setMnemonicParsing(false);
            mi.setOnAction(e -> open(p, null, null));
            recentMenu.getItems().add(mi);
        }
        recentMenu.setDisable(vm.recentFiles().isEmpty());
    }

    /**
     * Every shortcut works wherever the focus is, except that keys which type or edit are left to a focused
     * text field (Esc leaves it). Menu accelerators handle the rest of the letter keys.
     */
    private void onKey(KeyEvent e) {
        KeyCode c = e.getCode();
        if (c == KeyCode.F1) {
            toggleKeys();
            e.consume();
            return;
        }
        if (c == KeyCode.ESCAPE && keys != null && keys.isVisible()) {
            keys.setVisible(false);
            e.consume();
            return;
        }
        DocumentViewModel d = vm.document();
        if (d == null) return;
        if (typing(e)) {
            if (c == KeyCode.ESCAPE) root.requestFocus();
            return;
        }
        if (c == KeyCode.ESCAPE) {
            clearRange();
        } else if (c == KeyCode.RIGHT && !e.isShortcutDown()) {
            d.step(e.isShiftDown() ? 10 : 1);
        } else if (c == KeyCode.LEFT && !e.isShortcutDown()) {
            d.step(e.isShiftDown() ? -10 : -1);
        } else if (c == KeyCode.RIGHT || c == KeyCode.LEFT) {
            double w = pane.timeline().getViewport().width() * 0.25;
            pane.timeline().panPixels(c == KeyCode.LEFT ? w : -w);
        } else if (c == KeyCode.HOME) {
            d.home();
        } else if (c == KeyCode.END) {
            d.end();
        } else if (c == KeyCode.SPACE) {
            d.togglePlay();
        } else if (c == KeyCode.PLUS || c == KeyCode.EQUALS || c == KeyCode.ADD) {
            pane.timeline().zoomIn();
        } else if (c == KeyCode.MINUS || c == KeyCode.SUBTRACT) {
            pane.timeline().zoomOut();
        } else if (c == KeyCode.NUMPAD0) {
            pane.timeline().fitAll();
        } else {
            return;
        }
        e.consume();
    }

    private void chooseFile() {
        File f = chooseRecording("Open a weft-log recording");
        if (f != null) open(f.toPath(), null, null);
    }

    /** File ▸ Follow…: a recording that is still being written, shown as it grows (see FollowViewModel). */
    private MenuItem followItem() {
        return item("Follow a recording being written…", "Shortcut+Shift+O", () -> {
            File f = chooseRecording("Follow a recording that is being written");
            if (f != null) vm.follow(f.toPath());
        });
    }

    private void chooseCompare() {
        if (vm.document() == null) return;
        File f = chooseRecording("Compare " + vm.document().path().getFileName() + " with…");
        if (f != null) compareWith(f.toPath(), null);
    }

    /** The file dialog for a recording, starting where the last one was; null when cancelled. */
    private File chooseRecording(String title) {
        FileChooser fc = new FileChooser();
        fc.setTitle(title);
        Path dir = vm.openDialogDirectory();
        if (dir != null) fc.setInitialDirectory(dir.toFile());
        fc.getExtensionFilters().addAll(
                new FileChooser.ExtensionFilter("weft-log recordings", "*.weftlog", "*.weftlog.gz", "*.gz"),
                new FileChooser.ExtensionFilter("All files", "*"));
        return fc.showOpenDialog(stage);
    }

    private void copyCommand() {
        withDoc(d -> {
            DocumentPane.copyToClipboard(d.reproduceCommand());
            d.messageProperty().set("copied: " + d.reproduceCommand());
        });
    }

    private void withDoc(java.util.function.Consumer<DocumentViewModel> action) {
        DocumentViewModel d = vm.document();
        if (d != null) action.accept(d);
    }

    private void withPane(java.util.function.Consumer<DocumentPane> action) {
        if (pane != null) action.accept(pane);
    }

    /** The timeline on screen: the document's, or the preview's while a file loads. */
    private void withTimeline(java.util.function.Consumer<dev.weft.timeline.TimelineView> action) {
        if (preview != null) action.accept(preview);
        else if (pane != null) action.accept(pane.timeline());
    }

    private static MenuItem item(String text, String accel, Runnable action) {
        MenuItem mi = new MenuItem(text);
        if (accel != null) mi.setAccelerator(KeyCombination.keyCombination(accel));
        mi.setOnAction(e -> action.run());
        return mi;
    }
}
