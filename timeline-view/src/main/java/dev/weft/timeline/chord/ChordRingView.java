package dev.weft.timeline.chord;

import dev.weft.timeline.TimelinePalette;
import dev.weft.chord.ChordReport;
import dev.weft.chord.ChordTimeline;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

import java.util.List;
import java.util.function.IntFunction;

/**
 * The Chord ring after the cursor op, as the checker sees it ({@link ChordTimeline}): each identifier at its
 * place on a ring of 2^m positions, successor arrows curving inside the ring and predecessor arrows (dashed)
 * outside it, so the two never lie on top of each other; failed nodes grey with ✗; ring members filled,
 * appendages hollow. When an invariant is broken at the cursor, a red line names it and the offending nodes
 * get a red outline, the offending pointers turn red. Hovering a node names its lane (node and address).
 */
public class ChordRingView extends Region {

    public static final Color OFFENDER = Color.web("#dc2626");
    /** The least a pointer curves away from the straight line between its nodes, in pixels. */
    static final double MIN_BULGE = 30;

    private final Canvas canvas = new Canvas();
    private final ObjectProperty<ChordTimeline> chord = new SimpleObjectProperty<>(this, "chord");
    private final IntegerProperty cursorOp = new SimpleIntegerProperty(this, "cursorOp", 0);
    private final ObjectProperty<TimelinePalette> palette = new SimpleObjectProperty<>(this, "palette", TimelinePalette.LIGHT);
    private final ObjectProperty<IntFunction<String>> nodeNames = new SimpleObjectProperty<>(this, "nodeNames", id -> null);
    private final ObjectProperty<IntFunction<String>> nodeAddresses = new SimpleObjectProperty<>(this, "nodeAddresses", id -> null);
    private Tooltip tip;   // made on the first hover: a Tooltip needs the toolkit, a view may be built before it
    private ChordRingState state;
    private double cx, cy, r;
    private long ring = 64;
    private List<RingLabels.Placed> labels = List.of();

    public ChordRingView() {
        getChildren().add(canvas);
        chord.addListener(o -> requestLayout());
        cursorOp.addListener(o -> requestLayout());
        palette.addListener(o -> requestLayout());
        nodeNames.addListener(o -> requestLayout());
        setOnMouseMoved(e -> {
            Integer id = nodeAt(e.getX(), e.getY());
            if (id == null) {
                if (tip != null) Tooltip.uninstall(this, tip);
                return;
            }
            if (tip == null) tip = new Tooltip();
            tip.setText(hoverText(id));
            Tooltip.install(this, tip);
        });
    }

    public ObjectProperty<ChordTimeline> chordProperty() { return chord; }
    public IntegerProperty cursorOpProperty() { return cursorOp; }
    public ObjectProperty<TimelinePalette> paletteProperty() { return palette; }
    /** Names a Chord identifier by the node (lane) that reported it, e.g. "node 3"; null when unknown. */
    public ObjectProperty<IntFunction<String>> nodeNamesProperty() { return nodeNames; }
    /** The address a Chord identifier reports from, for the hover text; null when unknown. */
    public ObjectProperty<IntFunction<String>> nodeAddressesProperty() { return nodeAddresses; }

    /** The hover text of a node (what the tooltip shows), for tests. */
    public String hoverText(int id) {
        if (state == null) state = state();
        String lane = nodeNames.get().apply(id), addr = nodeAddresses.get().apply(id);
        return "Chord id " + id + (lane == null ? "" : " = " + lane) + (addr == null ? "" : " at " + addr) + describe(id);
    }

    /** What is drawn now (null before the first layout or without a timeline). */
    public ChordRingState state() {
        ChordTimeline t = chord.get();
        return t == null ? null : ChordRingState.at(t, cursorOp.get());
    }

    /** The label boxes drawn last, {x, y, w, h} each, in node order (for tests: none overlaps another). */
    public List<double[]> labelBounds() {
        return labels.stream().map(l -> new double[] {l.x(), l.y(), l.w(), l.h()}).toList();
    }

    /** Where ident's dot is drawn, in this control's coordinates. */
    public double[] nodeCentre(int ident) {
        double a = angle(ident, ring);
        return new double[] {cx + r * Math.cos(a), cy + r * Math.sin(a)};
    }

    private Integer nodeAt(double x, double y) {
        if (state == null) return null;
        for (int id : state.nodes().keySet()) {
            double[] c = nodeCentre(id);
            if (Math.hypot(c[0] - x, c[1] - y) <= 10) return id;
        }
        return null;
    }

    private String describe(int id) {
        ChordReport s = state.nodes().get(id);
        if (s == null) return "";
        if (!s.alive()) return "\nfailed (crashed): ✗";
        return "\nsucc " + s.succ() + " · succ2 " + s.succ2() + " · pred " + s.prdc()
                + (state.members().contains(id) ? " · on the ring" : " · appendage (not on the ring)");
    }

    @Override
    protected void layoutChildren() {
        double w = getWidth(), h = getHeight();
        canvas.setWidth(w);
        canvas.setHeight(h);
        paint(canvas.getGraphicsContext2D(), w, h);
    }

    private void paint(GraphicsContext g, double w, double h) {
        TimelinePalette p = palette.get();
        g.setFill(p.background());
        g.fillRect(0, 0, w, h);
        ChordTimeline t = chord.get();
        g.setFont(Font.font("System", 12));
        g.setFill(p.text());
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.TOP);
        if (t == null) {
            g.fillText("no Chord state reports in this recording", 8, 6);
            return;
        }
        state = ChordRingState.at(t, cursorOp.get());
        ring = 1L << Math.max(1, Math.min(30, t.m()));
        g.fillText("Chord ring after op " + cursorOp.get() + " · " + state.nodes().size() + " nodes reported · ring "
                + state.members() + " · m = " + t.m(), 8, 6);
        if (!state.headline().isEmpty()) {
            boolean broken = !state.violations().isEmpty();
            g.setFill(broken ? OFFENDER : p.text());
            g.setFont(Font.font("System", FontWeight.BOLD, 12));
            // Wrapped at word boundaries to the view's width (up to three lines), never cut off at the right.
            String line = (broken ? "✗ " : "") + state.headline();
            javafx.scene.text.Text measure = new javafx.scene.text.Text();
            measure.setFont(g.getFont());
            StringBuilder cur = new StringBuilder();
            double y = 24;
            int lines = 0;
            for (String word : line.split(" ")) {
                String attempt = cur.length() == 0 ? word : cur + " " + word;
                measure.setText(attempt);
                if (measure.getLayoutBounds().getWidth() > w - 16 && cur.length() > 0 && lines < 2) {
                    g.fillText(cur.toString(), 8, y);
                    y += 16;
                    lines++;
                    cur = new StringBuilder("   " + word);
                } else {
                    cur = new StringBuilder(attempt);
                }
            }
            g.fillText(cur.toString(), 8, y);
            g.setFont(Font.font("System", 12));
        }
        if (state.nodes().isEmpty()) {
            g.setFill(p.text());
            g.fillText("no reports up to this op", 8, 42);
            return;
        }
        // A narrow view wraps the legend's key onto more rows: the ring makes room for them.
        List<String> keyRows = keyRows(w);
        double extra = (keyRows.size() - 1) * LEGEND_ROW;
        cx = w / 2;
        cy = (h - extra) / 2 + 14;
        r = Math.max(20, Math.min(w - 200, h - 110 - extra) / 2 - 30);
        g.setStroke(p.grid());
        g.setLineWidth(1.5);
        g.strokeOval(cx - r, cy - r, 2 * r, 2 * r);
        for (var e : state.nodes().entrySet()) {
            ChordReport s = e.getValue();
            if (!s.alive()) continue;
            arrow(g, e.getKey(), s.succ(), p.send(), false, +1);
            arrow(g, e.getKey(), s.prdc(), p.recv(), true, -1);
        }
        for (int[] bad : state.badPointers()) arrow(g, bad[0], bad[1], OFFENDER, false, +1);
        for (var e : state.nodes().entrySet()) {
            int id = e.getKey();
            double[] c = nodeCentre(id);
            boolean alive = e.getValue().alive();
            boolean member = state.members().contains(id);
            Color fill = alive ? p.send() : p.recvEmpty();
            if (alive && !member) {
                g.setFill(p.background());
                g.fillOval(c[0] - 7, c[1] - 7, 14, 14);
                g.setStroke(fill);
                g.setLineWidth(2.5);
                g.strokeOval(c[0] - 6, c[1] - 6, 12, 12);
            } else {
                g.setFill(fill);
                g.fillOval(c[0] - 7, c[1] - 7, 14, 14);
            }
            if (state.offenders().contains(id)) {
                g.setStroke(OFFENDER);
                g.setLineWidth(3);
                g.strokeOval(c[0] - 12, c[1] - 12, 24, 24);
            }
        }
        paintLabels(g, p);
        legend(g, p, h, keyRows);
    }

    /** Every node's label ("22 · node 1", "4 ✗ · node 3"), laid out so that none overlaps another (RingLabels). */
    private void paintLabels(GraphicsContext g, TimelinePalette p) {
        Font font = Font.font("System", 12);
        int n = state.nodes().size();
        int[] ids = new int[n];
        double[] angles = new double[n], widths = new double[n];
        String[] texts = new String[n];
        javafx.scene.text.Text measure = new javafx.scene.text.Text();
        measure.setFont(font);
        int i = 0;
        for (var e : state.nodes().entrySet()) {   // ascending identifier: angle order round the ring
            int id = e.getKey();
            String lane = nodeNames.get().apply(id);
            texts[i] = id + (e.getValue().alive() ? "" : " ✗") + (lane == null ? "" : " · " + lane);
            measure.setText(texts[i]);
            ids[i] = id;
            angles[i] = angle(id, ring);
            widths[i] = Math.ceil(measure.getLayoutBounds().getWidth());
            i++;
        }
        double lineH = Math.ceil(measure.getLayoutBounds().getHeight());
        labels = RingLabels.layout(ids, angles, widths, lineH, cx, cy, r);
        g.setFont(font);
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.TOP);
        for (int k = 0; k < n; k++) {
            RingLabels.Placed l = labels.get(k);
            Color c = state.offenders().contains(ids[k]) ? OFFENDER : p.text();
            if (l.moved()) {
                // A label pushed outwards keeps a thin line to its node.
                double lx = Math.max(l.x(), Math.min(l.x() + l.w(), l.nodeX())), ly = Math.max(l.y(), Math.min(l.y() + l.h(), l.nodeY()));
                g.setStroke(p.grid());
                g.setLineWidth(1);
                g.strokeLine(l.nodeX(), l.nodeY(), lx, ly);
            }
            g.setFill(c);
            g.fillText(texts[k], l.x(), l.y());
        }
    }

    private static final double LEGEND_ROW = 15;
    private static final Font LEGEND_FONT = Font.font("System", 11);
    private static final String[] KEY = {"● ring member", "○ appendage (alive, not on the ring)", "✗ failed node",
        "red ring: breaks the invariant"};

    /** The legend's key in rows that fit the width w (item by item: an item is never cut at the right). */
    static List<String> keyRows(double w) {
        javafx.scene.text.Text measure = new javafx.scene.text.Text();
        measure.setFont(LEGEND_FONT);
        List<String> rows = new java.util.ArrayList<>();
        String cur = "";
        for (String item : KEY) {
            String attempt = cur.isEmpty() ? item : cur + "   " + item;
            measure.setText(attempt);
            if (!cur.isEmpty() && measure.getLayoutBounds().getWidth() > w - 16) {
                rows.add(cur);
                cur = item;
            } else {
                cur = attempt;
            }
        }
        rows.add(cur);
        return rows;
    }

    private void legend(GraphicsContext g, TimelinePalette p, double h, List<String> keyRows) {
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.BOTTOM);
        g.setFont(LEGEND_FONT);
        double y = h - 6 - (keyRows.size() - 1) * LEGEND_ROW;
        g.setFill(p.text());
        for (int i = 0; i < keyRows.size(); i++) g.fillText(keyRows.get(i), 8, y + i * LEGEND_ROW);
        g.setFill(p.send());
        g.fillText("— successor (inside)", 8, y - LEGEND_ROW);
        g.setFill(p.recv());
        g.fillText("- - predecessor (outside)", 150, y - LEGEND_ROW);
    }

    private static double angle(long ident, long ring) {
        return Math.floorMod(ident, ring) * 2 * Math.PI / ring - Math.PI / 2;
    }

    /** side +1 bends the curve towards the centre, -1 away from it, so a pair of opposite pointers never overlaps. */
    private void arrow(GraphicsContext g, int from, int to, Color c, boolean dashed, int side) {
        if (to < 0 || to == from) return;
        double[] a = nodeCentre(from), b = nodeCentre(to);
        double mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
        // The bulge: a quarter of the way to the centre (inside) or a third of the radius (outside), but never less
        // than MIN_BULGE, so an arrow between neighbours still shows as a curve with its head clear of the dots.
        double dx = mx - cx, dy = my - cy, len = Math.hypot(dx, dy);
        if (len < 1) {   // a diameter: bend it sideways
            dx = -(b[1] - a[1]);
            dy = b[0] - a[0];
            len = Math.max(1, Math.hypot(dx, dy));
        }
        double bulge = side > 0 ? Math.max(MIN_BULGE, len * 0.25) : Math.max(MIN_BULGE, r * 0.35);
        double qx = mx - side * dx / len * bulge, qy = my - side * dy / len * bulge;
        g.setStroke(c);
        g.setLineWidth(c == OFFENDER ? 2.6 : 1.6);
        g.setLineDashes(dashed ? new double[] {5, 4} : null);
        g.beginPath();
        g.moveTo(a[0], a[1]);
        g.quadraticCurveTo(qx, qy, b[0], b[1]);
        g.stroke();
        g.setLineDashes((double[]) null);
        double ang = Math.atan2(b[1] - qy, b[0] - qx);
        double bx = b[0] - 8 * Math.cos(ang), by = b[1] - 8 * Math.sin(ang);
        g.setFill(c);
        g.fillPolygon(new double[] {bx, bx - 7 * Math.cos(ang - 0.45), bx - 7 * Math.cos(ang + 0.45)},
                new double[] {by, by - 7 * Math.sin(ang - 0.45), by - 7 * Math.sin(ang + 0.45)}, 3);
    }
}
