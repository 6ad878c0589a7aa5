package dev.weft.timeline;

import javafx.beans.Observable;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableSet;
import javafx.scene.Cursor;
import javafx.scene.canvas.Canvas;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;

import java.util.Arrays;

/**
 * The timeline control: one lane per node, marks coloured by kind, send→receive arrows, a ruler, a scrub
 * cursor, violation markers and an overview strip with the visible window. Drawn immediate-mode on Canvas
 * (no Node per event); any number of changes within one pulse cause a single repaint in the layout pass.
 *
 * <p>Mouse: the wheel scrolls the lanes when they do not fit (otherwise pans), Ctrl+wheel zooms at the pointer,
 * Shift+wheel pans, drag pans, click selects the nearest mark,
 * clicking the selected send/receive again (or double-clicking) jumps to its partner, click in the ruler
 * moves the cursor, drag along it selects a range, Shift+click measures from the selected mark, click or drag in the overview moves the window. Keys (when focused): + / - or W / S zoom,
 * 0 fit all, Ctrl+←/→ or A/D pan, J jump to partner.
 */
public class TimelineView extends Region {

    static final double MINIMAP_HEIGHT = 46;
    static final double GAP = 4;
    /** Lanes never get thinner than this: when they do not fit, they scroll (wheel) instead. */
    static final double MIN_LANE = 22;
    static final double MAX_LANE = 80;
    /** A collapsed lane: a thin strip that still shows where its activity is. */
    static final double COLLAPSED_LANE = 10;

    private final Canvas main = new Canvas();
    private final Canvas minimapContent = new Canvas();
    private final Canvas minimapOverlay = new Canvas();
    /** Scrolls the lanes when they do not fit; shown only then, over the plot's right edge. */
    private final javafx.scene.control.ScrollBar laneScroll = new javafx.scene.control.ScrollBar();
    private final TimelineRenderer renderer = new TimelineRenderer();
    private final MinimapRenderer minimap = new MinimapRenderer();
    private final Viewport viewport = new Viewport();

    private final ObjectProperty<TimelineModel> model = new SimpleObjectProperty<>(this, "model", TimelineModel.empty());
    private final ObjectProperty<AxisMode> axisMode = new SimpleObjectProperty<>(this, "axisMode", AxisMode.OP);
    private final ObjectProperty<TimelinePalette> palette = new SimpleObjectProperty<>(this, "palette", TimelinePalette.LIGHT);
    private final IntegerProperty cursorOp = new SimpleIntegerProperty(this, "cursorOp", -1);
    private final IntegerProperty selectedOp = new SimpleIntegerProperty(this, "selectedOp", -1);
    private final ReadOnlyIntegerWrapper hoveredOp = new ReadOnlyIntegerWrapper(this, "hoveredOp", -1);
    private final IntegerProperty hiddenKinds = new SimpleIntegerProperty(this, "hiddenKinds", 0);
    private final ObservableSet<Integer> hiddenLanes = FXCollections.observableSet();
    private final ObservableSet<Integer> pinnedLanes = FXCollections.observableSet();
    private final ObservableSet<Integer> collapsedLanes = FXCollections.observableSet();
    private final ObjectProperty<int[]> markers = new SimpleObjectProperty<>(this, "markers", new int[0]);
    private final ObjectProperty<int[]> verdictMarkers = new SimpleObjectProperty<>(this, "verdictMarkers", new int[0]);
    private final IntegerProperty errorOp = new SimpleIntegerProperty(this, "errorOp", -1);
    private final BooleanProperty showArrows = new SimpleBooleanProperty(this, "showArrows", true);
    private final ObjectProperty<int[]> suppressedMarkers = new SimpleObjectProperty<>(this, "suppressedMarkers", new int[0]);
    private final ObjectProperty<int[]> highlights = new SimpleObjectProperty<>(this, "highlights", new int[0]);
    private final ObjectProperty<int[]> bookmarks = new SimpleObjectProperty<>(this, "bookmarks", new int[0]);
    private final ObjectProperty<int[]> planMarks = new SimpleObjectProperty<>(this, "planMarks", new int[0]);
    private final ObjectProperty<java.util.BitSet> shownOps = new SimpleObjectProperty<>(this, "shownOps");
    private final ObjectProperty<int[]> range = new SimpleObjectProperty<>(this, "range");
    private final IntegerProperty measureOp = new SimpleIntegerProperty(this, "measureOp", -1);
    private final javafx.beans.property.ReadOnlyObjectWrapper<double[]> window =
            new javafx.beans.property.ReadOnlyObjectWrapper<>(this, "window", new double[] {0, 0});

    /** Zoom factor of one key press or toolbar click: 1M ops to ~200 in six presses. */
    public static final double KEY_ZOOM = 4;
    /** Zoom per wheel unit (a notch is about 40 units, so ~1.5x a notch). */
    static final double WHEEL_ZOOM_BASE = 1.01;

    private boolean dirty = true;
    private boolean minimapDirty = true;
    private int[] laneRow = new int[0];
    private int rows;
    /** Rows [0, pinnedRows) are the pinned lanes: they stay at the top while the others scroll under them. */
    private int pinnedRows;
    private final javafx.scene.control.ContextMenu laneMenu = new javafx.scene.control.ContextMenu();
    private int[] allMarkers = new int[0];
    private long frames;
    private long lastFrameNanos;

    private double pressX, pressY, lastDragX;
    private boolean dragged;
    private DragTarget dragTarget = DragTarget.NONE;

    private enum DragTarget { NONE, PLOT, RULER, MINIMAP }

    public TimelineView() {
        getStyleClass().add("timeline-view");
        setFocusTraversable(true);
        getChildren().addAll(main, minimapContent, minimapOverlay, laneScroll);
        minimapOverlay.setMouseTransparent(true);
        laneScroll.setOrientation(javafx.geometry.Orientation.VERTICAL);
        laneScroll.setId("laneScroll");
        laneScroll.setVisible(false);
        laneScroll.setFocusTraversable(false);
        laneScroll.valueProperty().addListener(o -> invalidate());
        model.addListener((o, a, b) -> onModelOrAxisChanged());
        axisMode.addListener((o, a, b) -> onAxisChanged(a));
        for (Observable o : new Observable[] {palette, hiddenKinds, hiddenLanes, pinnedLanes, collapsedLanes}) o.addListener(x -> invalidateAll());
        markers.addListener(x -> invalidateAll());
        verdictMarkers.addListener(x -> invalidateAll());
        suppressedMarkers.addListener(x -> invalidateAll());
        shownOps.addListener(x -> invalidateAll());
        for (Observable o : new Observable[] {cursorOp, selectedOp, hoveredOp, errorOp, showArrows, highlights, bookmarks, range, measureOp, planMarks}) {
            o.addListener(x -> invalidate());
        }
        setOnScroll(this::onScroll);
        setOnMousePressed(this::onPressed);
        setOnMouseDragged(this::onDragged);
        setOnMouseReleased(this::onReleased);
        setOnMouseMoved(this::onMoved);
        setOnMouseExited(e -> hoveredOp.set(-1));
        addEventHandler(KeyEvent.KEY_PRESSED, this::onKey);
        onModelOrAxisChanged();
    }

    // ---- properties -------------------------------------------------------------------------------

    public ObjectProperty<TimelineModel> modelProperty() { return model; }
    public TimelineModel getModel() { return model.get(); }
    public void setModel(TimelineModel m) { model.set(m == null ? TimelineModel.empty() : m); }

    public ObjectProperty<AxisMode> axisModeProperty() { return axisMode; }
    public ObjectProperty<TimelinePalette> paletteProperty() { return palette; }

    /** The op whose post-state is shown (the scrub cursor), -1 for none. */
    public IntegerProperty cursorOpProperty() { return cursorOp; }
    public IntegerProperty selectedOpProperty() { return selectedOp; }
    public ReadOnlyIntegerProperty hoveredOpProperty() { return hoveredOp.getReadOnlyProperty(); }

    /** Mask of {@link MarkKind#bit()}s whose marks are hidden. */
    public IntegerProperty hiddenKindsProperty() { return hiddenKinds; }
    /** Indexes of lanes ({@link TimelineModel#lanes()}) that are hidden. */
    public ObservableSet<Integer> getHiddenLanes() { return hiddenLanes; }
    /** Lanes pinned to the top: drawn first and never scrolled away (a click on the label's menu pins one). */
    public ObservableSet<Integer> getPinnedLanes() { return pinnedLanes; }
    /** Lanes collapsed to a thin strip (a click on the lane's label collapses or expands it). */
    public ObservableSet<Integer> getCollapsedLanes() { return collapsedLanes; }

    /** The lane whose label or row is at y in this control's coordinates (as drawn now), or -1. */
    public int laneAt(double y) {
        if (y < TimelineRenderer.RULER || y >= main.getHeight()) return -1;
        double[] top = rowScreenTops();
        int[] shown = frameLaneRows(top);
        for (int l = 0; l < shown.length; l++) {
            int row = shown[l];
            if (row >= 0 && y >= top[row] && y < top[row] + rowHeight(row)) return l;
        }
        return -1;
    }
    /** Extra marker ops (e.g. violations found by replay checks), drawn like violation records. */
    public ObjectProperty<int[]> markersProperty() { return markers; }
    /**
     * Ops of verdicts about the program (protocol, deadlock, stream …), sorted: drawn as a red ◆ with a solid line, where
     * every other marker (fifo / dup, violation records) is an amber ▼ with a faint one.
     */
    public ObjectProperty<int[]> verdictMarkersProperty() { return verdictMarkers; }
    /** First bad op of a log that failed to verify (size() when the problem is after the last record), or -1. */
    public IntegerProperty errorOpProperty() { return errorOp; }
    public BooleanProperty showArrowsProperty() { return showArrows; }
    /** Violation records of the model not to draw (sorted ops), e.g. those of invariants the user unticked. */
    public ObjectProperty<int[]> suppressedMarkersProperty() { return suppressedMarkers; }
    /** Search matches (sorted ops): a yellow tick on the ruler and a ring round the mark. */
    public ObjectProperty<int[]> highlightsProperty() { return highlights; }
    /** Bookmarked ops (sorted): a blue flag on the ruler. */
    public ObjectProperty<int[]> bookmarksProperty() { return bookmarks; }
    /** Ops where a fault plan's deviations happened (sorted): a teal diamond on the ruler. */
    public ObjectProperty<int[]> planMarksProperty() { return planMarks; }
    /** The ops the filters leave (null: all); others are not drawn. */
    public ObjectProperty<java.util.BitSet> shownOpsProperty() { return shownOps; }
    /** The selected range {fromOp, toOp} inclusive, or null; dragging on the ruler sets it. */
    public ObjectProperty<int[]> rangeProperty() { return range; }
    /** The second event of a measurement (Shift+click): the interval from the selected op to it is drawn. */
    public IntegerProperty measureOpProperty() { return measureOp; }

    /** How far the lanes are scrolled up, in pixels (0 when they all fit). */
    public double laneScrollY() { return Math.max(0, Math.min(maxLaneScroll(), laneScroll.getValue())); }

    /** Scrolls the lanes by dy pixels (positive: down, to later lanes); clamped to what there is to see. */
    public void scrollLanes(double dy) {
        laneScroll.setValue(Math.max(0, Math.min(maxLaneScroll(), laneScrollY() + dy)));
        invalidate();
    }

    /** Whether every lane fits (nothing to scroll). */
    public boolean lanesFit() { return maxLaneScroll() <= 0; }

    /** Lane labels fully on screen now, top to bottom (for tests and the status line). */
    public java.util.List<String> lanesOnScreen() {
        String[] byRow = new String[rows];
        double[] top = rowScreenTops();
        int[] shown = frameLaneRows(top);
        for (int l = 0; l < shown.length; l++) {
            int row = shown[l];
            if (row >= 0 && top[row] >= TimelineRenderer.RULER - 0.5 && top[row] + rowHeight(row) <= main.getHeight() + 0.5) {
                byRow[row] = getModel().lanes().get(l).label();
            }
        }
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String label : byRow) if (label != null) out.add(label);
        return out;
    }

    private double laneArea() {
        return Math.max(0, main.getHeight() - TimelineRenderer.RULER - 4);
    }

    private double maxLaneScroll() {
        return Math.max(0, rowsHeight(pinnedRows, rows) - (laneArea() - rowsHeight(0, pinnedRows)));
    }

    private boolean rowCollapsed(int row) {
        for (int l = 0; l < laneRow.length; l++) if (laneRow[l] == row) return collapsedLanes.contains(l);
        return false;
    }

    private double rowHeight(int row) {
        return rowCollapsed(row) ? COLLAPSED_LANE : laneHeight();
    }

    /** Summed height of rows [from, to). */
    private double rowsHeight(int from, int to) {
        double h = 0;
        for (int r = from; r < to; r++) h += rowHeight(r);
        return h;
    }

    /** Where each row's top is drawn now: the pinned ones from the ruler down, the rest below them, scrolled. */
    private double[] rowScreenTops() {
        double[] top = new double[rows];
        double y = TimelineRenderer.RULER;
        for (int r = 0; r < pinnedRows; r++) {
            top[r] = y;
            y += rowHeight(r);
        }
        y -= laneScrollY();
        for (int r = pinnedRows; r < rows; r++) {
            top[r] = y;
            y += rowHeight(r);
        }
        return top;
    }

    /** laneRow, less the unpinned rows scrolled (even partly) under the pinned ones: those are not drawn. */
    private int[] frameLaneRows(double[] top) {
        if (pinnedRows == 0) return laneRow;
        double pinnedBottom = TimelineRenderer.RULER + rowsHeight(0, pinnedRows);
        int[] out = laneRow.clone();
        for (int l = 0; l < out.length; l++) {
            if (out[l] >= pinnedRows && top[out[l]] < pinnedBottom - 0.5) out[l] = -1;
        }
        return out;
    }

    /** The op whose lane the next layout scrolls into view (sizes are only known then), or -1. */
    private int pendingLaneReveal = -1;

    /** Scrolls the lanes the least that shows the lane of op. */
    private void revealLaneOf(int op) {
        if (op < 0 || op >= getModel().size()) return;
        if (main.getHeight() <= TimelineRenderer.RULER + 4) {   // not laid out yet: do it when it is
            pendingLaneReveal = op;
            return;
        }
        int row = laneRow[getModel().lane(op)];
        if (row < pinnedRows) return;   // hidden (-1) or pinned: nothing to scroll
        double lh = rowHeight(row), top = rowsHeight(pinnedRows, row), y = laneScrollY();
        double area = laneArea() - rowsHeight(0, pinnedRows);
        if (top < y) scrollLanes(top - y);
        else if (top + lh > y + area) scrollLanes(top + lh - (y + area));
    }

    /**
     * The visible window {start, end} in axis units (ops or ns), published after each frame that moved it (zoom, pan,
     * fit): another view can follow it (the compare view's linked zoom).
     */
    public javafx.beans.property.ReadOnlyObjectProperty<double[]> windowProperty() { return window.getReadOnlyProperty(); }

    /** Shows the window [from, to) in axis units, as another view had it. */
    public void showWindow(double from, double to) {
        if (!(to > from)) return;
        viewport.show(from, to);
        invalidate();
    }

    /** The visible window, for status lines and tests (read it, change it through the methods below). */
    public Viewport getViewport() { return viewport; }

    public long frameCount() { return frames; }
    public long lastFrameNanos() { return lastFrameNanos; }

    // ---- navigation -------------------------------------------------------------------------------

    public void zoomIn() { zoomAround(KEY_ZOOM); }
    public void zoomOut() { zoomAround(1 / KEY_ZOOM); }

    /** Shows the selected range (a little margin either side); false when there is none. */
    public boolean zoomToRange() {
        int[] r = range.get();
        if (r == null) return false;
        int pad = Math.max(1, (r[1] - r[0]) / 20);
        showOps(r[0] - pad, r[1] + 1 + pad);
        return true;
    }

    /** Zooms keeping the cursor in place when it is visible, otherwise the centre. */
    private void zoomAround(double factor) {
        double x = viewport.width() / 2;
        int c = cursorOp.get();
        if (c >= 0 && c < getModel().size()) {
            double cx = mapping().xOf(c);
            if (cx >= 0 && cx <= viewport.width()) x = cx;
        }
        zoomAt(x, factor);
    }

    /** Zooms by factor (> 1 in) at plot x (pixels from the left of the plot area). */
    public void zoomAt(double plotX, double factor) {
        viewport.zoomAt(plotX, factor);
        invalidate();
    }

    public void panPixels(double dx) {
        viewport.panPixels(dx);
        invalidate();
    }

    public void fitAll() {
        viewport.fitAll();
        invalidate();
    }

    /** Scrolls so that op is visible (no zoom change). */
    public void reveal(int op) {
        if (op < 0 || op >= getModel().size()) return;
        viewport.reveal(mapping().valueOf(op));
        revealLaneOf(op);
        invalidate();
    }

    public void centerOn(int op) {
        if (op < 0 || op >= getModel().size()) return;
        viewport.centerOn(mapping().valueOf(op));
        invalidate();
    }

    /** Shows the ops [from, to) in OP mode, or their vt span in VIRTUAL_TIME mode. */
    public void showOps(int from, int to) {
        AxisMapping m = mapping();
        int n = getModel().size();
        if (n == 0) return;
        from = Math.max(0, Math.min(n - 1, from));
        to = Math.max(from + 1, Math.min(n, to));
        if (axisMode.get() == AxisMode.OP) viewport.show(from, to);
        else viewport.show(m.valueOf(from), m.valueOf(to - 1) + 1);
        invalidate();
    }

    /** Selects the partner of the selected send/receive and brings it into view; false if it has none. */
    public boolean jumpToPartner() {
        int s = selectedOp.get();
        if (s < 0 || s >= getModel().size()) return false;
        int p = getModel().partner(s);
        if (p < 0) return false;
        selectedOp.set(p);
        reveal(p);
        return true;
    }

    /** Ops currently inside the window: {from, to}. */
    public int[] visibleOps() {
        return mapping().visibleOps();
    }

    /** The mark at a point in this control's coordinates, or -1. */
    public int hitTest(double x, double y) {
        double plotX = x - TimelineRenderer.GUTTER;
        if (plotX < 0 || y < TimelineRenderer.RULER) return -1;
        int lane = laneAt(y);
        if (lane < 0) return -1;
        int hidden = hiddenKinds.get();
        return mapping().nearestOp(lane, plotX, 8, (ln, k) -> (hidden & (1 << k)) == 0);
    }

    /** Screen-independent position of an op's mark in this control's coordinates, or null if hidden. */
    public double[] markPosition(int op) {
        TimelineModel m = getModel();
        if (op < 0 || op >= m.size()) return null;
        double[] top = rowScreenTops();
        int row = frameLaneRows(top)[m.lane(op)];
        if (row < 0) return null;
        return new double[] {TimelineRenderer.GUTTER + mapping().xOf(op), top[row] + rowHeight(row) / 2};
    }

    // ---- drawing ----------------------------------------------------------------------------------

    /** Marks the frame stale; it is repainted once, in the next layout pass. */
    public final void invalidate() {
        dirty = true;
        requestLayout();
    }

    private void invalidateAll() {
        minimapDirty = true;
        recomputeLanes();
        invalidate();
    }

    private void onModelOrAxisChanged() {
        TimelineModel m = getModel();
        double[] d = AxisMapping.domain(m, axisMode.get());
        viewport.setDomain(d[0], d[1]);
        hiddenLanes.removeIf(l -> l >= m.laneCount());
        pinnedLanes.removeIf(l -> l >= m.laneCount());
        collapsedLanes.removeIf(l -> l >= m.laneCount());
        invalidateAll();
    }

    // Switching the axis keeps the same events in view.
    private void onAxisChanged(AxisMode old) {
        TimelineModel m = getModel();
        int[] vis = new AxisMapping(m, old, viewport).visibleOps();
        double[] d = AxisMapping.domain(m, axisMode.get());
        viewport.setDomain(d[0], d[1]);
        if (m.size() > 0 && vis[1] > vis[0]) showOps(vis[0], vis[1]);
        invalidateAll();
    }

    private void recomputeLanes() {
        TimelineModel m = getModel();
        laneRow = new int[m.laneCount()];
        rows = 0;
        // Pinned lanes first (in lane order), then the others.
        for (int l = 0; l < laneRow.length; l++) laneRow[l] = hiddenLanes.contains(l) || !pinnedLanes.contains(l) ? -1 : rows++;
        pinnedRows = rows;
        for (int l = 0; l < laneRow.length; l++) if (!hiddenLanes.contains(l) && !pinnedLanes.contains(l)) laneRow[l] = rows++;
        int[] own = m.violationOps();
        int[] hidden = suppressedMarkers.get() == null ? new int[0] : suppressedMarkers.get();
        if (hidden.length > 0) own = Arrays.stream(own).filter(op -> Arrays.binarySearch(hidden, op) < 0).toArray();
        int[] extra = markers.get() == null ? new int[0] : markers.get();
        int[] merged = Arrays.copyOf(own, own.length + extra.length);
        System.arraycopy(extra, 0, merged, own.length, extra.length);
        Arrays.sort(merged);
        allMarkers = merged;
    }

    private int[] verdicts() {
        return verdictMarkers.get() == null ? new int[0] : verdictMarkers.get();
    }

    private AxisMapping mapping() {
        return new AxisMapping(getModel(), axisMode.get(), viewport);
    }

    /** The height of an expanded lane: the room left by the collapsed ones, shared, within [MIN_LANE, MAX_LANE]. */
    private double laneHeight() {
        double avail = main.getHeight() - TimelineRenderer.RULER - 4;
        int collapsed = 0;
        for (int l = 0; l < laneRow.length; l++) if (laneRow[l] >= 0 && collapsedLanes.contains(l)) collapsed++;
        int expanded = rows - collapsed;
        return expanded <= 0 ? MIN_LANE : Math.max(MIN_LANE, Math.min(MAX_LANE, (avail - collapsed * COLLAPSED_LANE) / expanded));
    }

    @Override
    protected void layoutChildren() {
        double w = Math.max(1, snapSizeX(getWidth()));
        double h = Math.max(1, snapSizeY(getHeight()));
        double mainH = Math.max(1, h - MINIMAP_HEIGHT - GAP);
        if (main.getWidth() != w || main.getHeight() != mainH) {
            main.setWidth(w);
            main.setHeight(mainH);
            minimapContent.setWidth(w);
            minimapContent.setHeight(MINIMAP_HEIGHT);
            minimapOverlay.setWidth(w);
            minimapOverlay.setHeight(MINIMAP_HEIGHT);
            viewport.setWidth(w - TimelineRenderer.GUTTER);
            dirty = true;
            minimapDirty = true;
        }
        main.relocate(0, 0);
        if (pendingLaneReveal >= 0) {
            int op = pendingLaneReveal;
            pendingLaneReveal = -1;
            revealLaneOf(op);
        }
        double sb = 12, max = maxLaneScroll();
        laneScroll.setVisible(max > 0);
        laneScroll.setMax(max);
        double pinnedH = rowsHeight(0, pinnedRows);
        laneScroll.setVisibleAmount(max <= 0 ? 1 : (laneArea() - pinnedH) * max / Math.max(1, rowsHeight(pinnedRows, rows)));
        laneScroll.setUnitIncrement(laneHeight());
        laneScroll.setBlockIncrement((laneArea() - pinnedH) * 0.8);
        if (laneScroll.getValue() > max) laneScroll.setValue(max);
        laneScroll.resizeRelocate(w - sb, TimelineRenderer.RULER + pinnedH, sb, Math.max(1, mainH - TimelineRenderer.RULER - pinnedH));
        minimapContent.relocate(0, mainH + GAP);
        minimapOverlay.relocate(0, mainH + GAP);
        if (dirty) paintNow();
    }

    /** Paints the frame immediately (the layout pass calls this; benchmarks call it to time a frame). */
    public void paintNow() {
        long t0 = System.nanoTime();
        TimelineModel m = getModel();
        if (minimapDirty) {
            minimap.paintContent(minimapContent.getGraphicsContext2D(), m, axisMode.get(), laneRow, rows, hiddenKinds.get(),
                    palette.get(), minimapContent.getWidth(), minimapContent.getHeight());
            minimapDirty = false;
        }
        double[] tops = rowScreenTops();
        double[] heights = new double[rows];
        for (int r = 0; r < rows; r++) heights[r] = rowHeight(r);
        var frame = new TimelineRenderer.Frame(m, mapping(), viewport, axisMode.get(), palette.get(), frameLaneRows(tops), rows,
                tops, heights, pinnedRows, pinnedLanes, collapsedLanes, laneHeight(), hiddenKinds.get(), cursorOp.get(), selectedOp.get(), hoveredOp.get(), allMarkers, verdicts(),
                errorOp.get(), showArrows.get(), main.getWidth(), main.getHeight(), highlights.get(), bookmarks.get(),
                shownOps.get(), range.get(), measureOp.get(), laneScrollY(), planMarks.get());
        renderer.paint(main.getGraphicsContext2D(), frame);
        minimap.paintOverlay(minimapOverlay.getGraphicsContext2D(), m, axisMode.get(), viewport, allMarkers, verdicts(), errorOp.get(),
                cursorOp.get(), palette.get(), minimapOverlay.getWidth(), minimapOverlay.getHeight());
        dirty = false;
        double[] w = window.get();
        if (w[0] != viewport.start() || w[1] != viewport.end()) window.set(new double[] {viewport.start(), viewport.end()});
        frames++;
        lastFrameNanos = System.nanoTime() - t0;
    }

    @Override
    protected double computePrefWidth(double height) { return 900; }

    @Override
    protected double computePrefHeight(double width) {
        return TimelineRenderer.RULER + Math.max(1, rows) * 34 + MINIMAP_HEIGHT + GAP + 8;
    }

    @Override
    protected double computeMinHeight(double width) {
        // One lane: the others scroll. A squeezed window (1024×700 without room for decorations) then still has room
        // for the legend under the overview instead of cutting its last row.
        return TimelineRenderer.RULER + MIN_LANE + MINIMAP_HEIGHT + GAP;
    }

    // ---- input ------------------------------------------------------------------------------------

    private boolean inMinimap(double y) {
        return y >= main.getHeight() + GAP;
    }

    private void onScroll(ScrollEvent e) {
        double plotX = e.getX() - TimelineRenderer.GUTTER;
        if (plotX < 0) return;
        double dy = e.getDeltaY() != 0 ? e.getDeltaY() : e.getDeltaX();
        if (dy == 0) return;
        // Ctrl+wheel zooms at the pointer; Shift+wheel (or a sideways wheel) pans; the wheel scrolls the lanes, or
        // pans along the axis when they all fit.
        if (e.isShortcutDown() || e.isControlDown()) zoomAt(plotX, Math.pow(WHEEL_ZOOM_BASE, dy));
        else if (e.isShiftDown() || (e.getDeltaX() != 0 && e.getDeltaY() == 0) || lanesFit()) panPixels(dy);
        else scrollLanes(-dy);
        e.consume();
    }

    private void onPressed(MouseEvent e) {
        requestFocus();
        pressX = e.getX();
        pressY = e.getY();
        lastDragX = e.getX();
        dragged = false;
        laneMenu.hide();
        if (e.getX() < TimelineRenderer.GUTTER && !inMinimap(e.getY()) && laneAt(e.getY()) >= 0) {
            onLaneLabel(laneAt(e.getY()), e);
            return;
        }
        if (e.getButton() != MouseButton.PRIMARY) return;
        if (inMinimap(e.getY())) dragTarget = DragTarget.MINIMAP;
        else if (e.getY() < TimelineRenderer.RULER) dragTarget = DragTarget.RULER;
        else dragTarget = DragTarget.PLOT;
        if (dragTarget == DragTarget.MINIMAP) moveWindowTo(e.getX());
        // A click on the ruler moves the cursor; a drag along it selects a range (decided on release / first move).
    }

    /** A click on a lane's label collapses or expands it; the secondary button opens its menu (pin, collapse). */
    private void onLaneLabel(int lane, MouseEvent e) {
        if (e.getButton() == MouseButton.PRIMARY) {
            toggle(collapsedLanes, lane);
            return;
        }
        if (e.getButton() != MouseButton.SECONDARY) return;
        javafx.scene.control.MenuItem pin = new javafx.scene.control.MenuItem(pinnedLanes.contains(lane) ? "Unpin lane" : "Pin lane to top");
        pin.setOnAction(a -> toggle(pinnedLanes, lane));
        javafx.scene.control.MenuItem collapse = new javafx.scene.control.MenuItem(collapsedLanes.contains(lane) ? "Expand lane" : "Collapse lane");
        collapse.setOnAction(a -> toggle(collapsedLanes, lane));
        javafx.scene.control.MenuItem hide = new javafx.scene.control.MenuItem("Hide lane");
        hide.setOnAction(a -> hiddenLanes.add(lane));
        laneMenu.getItems().setAll(pin, collapse, hide);
        laneMenu.show(this, e.getScreenX(), e.getScreenY());
    }

    private static void toggle(ObservableSet<Integer> set, int lane) {
        if (!set.remove(lane)) set.add(lane);
    }

    private void onDragged(MouseEvent e) {
        if (Math.abs(e.getX() - pressX) + Math.abs(e.getY() - pressY) > 3) dragged = true;
        switch (dragTarget) {
            case PLOT -> {
                setCursor(Cursor.CLOSED_HAND);
                panPixels(e.getX() - lastDragX);
            }
            case RULER -> {
                if (dragged) {
                    int a = mapping().cursorOpAt(pressX - TimelineRenderer.GUTTER), b = mapping().cursorOpAt(e.getX() - TimelineRenderer.GUTTER);
                    if (a >= 0 && b >= 0) range.set(new int[] {Math.min(a, b), Math.max(a, b)});
                }
            }
            case MINIMAP -> moveWindowTo(e.getX());
            default -> { }
        }
        lastDragX = e.getX();
    }

    private void onReleased(MouseEvent e) {
        setCursor(Cursor.DEFAULT);
        if (dragTarget == DragTarget.RULER && !dragged) scrubTo(e.getX());
        if (dragTarget == DragTarget.PLOT && !dragged && e.getButton() == MouseButton.PRIMARY) {
            int hit = hitTest(e.getX(), e.getY());
            if (e.isShiftDown()) {
                // Measure from the selected event to this one; the selection stays.
                measureOp.set(hit);
            } else if (hit >= 0 && (hit == selectedOp.get() || e.getClickCount() >= 2) && getModel().partner(hit) >= 0) {
                selectedOp.set(hit);
                jumpToPartner();
            } else {
                selectedOp.set(hit);
            }
        }
        dragTarget = DragTarget.NONE;
    }

    private void onMoved(MouseEvent e) {
        hoveredOp.set(inMinimap(e.getY()) ? -1 : hitTest(e.getX(), e.getY()));
    }

    private void scrubTo(double x) {
        int op = mapping().cursorOpAt(x - TimelineRenderer.GUTTER);
        if (op >= 0) cursorOp.set(op);
    }

    private void moveWindowTo(double x) {
        TimelineModel m = getModel();
        if (m.size() == 0) return;
        Viewport whole = MinimapRenderer.wholeViewport(m, axisMode.get(), viewport.width());
        viewport.centerOn(whole.valueAt(x - TimelineRenderer.GUTTER));
        invalidate();
    }

    private void onKey(KeyEvent e) {
        KeyCode c = e.getCode();
        boolean handled = true;
        if (c == KeyCode.PLUS || c == KeyCode.EQUALS || c == KeyCode.ADD) zoomIn();
        else if (c == KeyCode.MINUS || c == KeyCode.SUBTRACT || c == KeyCode.S) zoomOut();
        else if (c == KeyCode.W) zoomIn();
        else if (c == KeyCode.DIGIT0 || c == KeyCode.NUMPAD0) fitAll();
        else if ((c == KeyCode.LEFT && e.isShortcutDown()) || c == KeyCode.A) panPixels(viewport.width() * 0.2);
        else if ((c == KeyCode.RIGHT && e.isShortcutDown()) || c == KeyCode.D) panPixels(-viewport.width() * 0.2);
        else if (c == KeyCode.J) jumpToPartner();
        else handled = false;
        if (handled) e.consume();
    }
}
