package dev.weft.timeline;

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
            g.setFill(OFFENDER);
            g.setFont(Font.font("System", FontWeight.BOLD, 12));
            g.fillText("✗ " + state.headline(), 8, 24);
            g.setFont(Font.font("System", 12));
        }
        if (state.nodes().isEmpty()) {
            g.setFill(p.text());
            g.fillText("no reports up to this op", 8, 42);
            return;
        }
        cx = w / 2;
        cy = h / 2 + 10;
        r = Math.max(20, Math.min(w, h - 90) / 2 - 40);
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
        double lastAngle = Double.NaN;
        int step = 0;
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
            double a = angle(id, ring);
            // Neighbours closer than ~20° get their labels stepped outwards so they do not overprint.
            step = !Double.isNaN(lastAngle) && a - lastAngle < 0.35 ? step + 1 : 0;
            lastAngle = a;
            double lr = r + 24 + 16 * step;
            String lane = nodeNames.get().apply(id);
            g.setFill(state.offenders().contains(id) ? OFFENDER : p.text());
            double cos = Math.cos(a);
            g.setTextAlign(cos > 0.3 ? TextAlignment.LEFT : cos < -0.3 ? TextAlignment.RIGHT : TextAlignment.CENTER);
            g.setTextBaseline(VPos.CENTER);
            g.fillText(id + (alive ? "" : " ✗") + (lane == null ? "" : " · " + lane), cx + lr * cos, cy + lr * Math.sin(a));
        }
        legend(g, p, h);
    }

    private void legend(GraphicsContext g, TimelinePalette p, double h) {
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.BOTTOM);
        g.setFont(Font.font("System", 11));
        double y = h - 6;
        g.setFill(p.text());
        g.fillText("● ring member   ○ appendage (alive, not on the ring)   ✗ failed node   red ring: breaks the invariant", 8, y);
        g.setFill(p.send());
        g.fillText("— successor (inside)", 8, y - 15);
        g.setFill(p.recv());
        g.fillText("- - predecessor (outside)", 150, y - 15);
    }

    private static double angle(long ident, long ring) {
        return Math.floorMod(ident, ring) * 2 * Math.PI / ring - Math.PI / 2;
    }

    /** side +1 bends the curve towards the centre, -1 away from it, so a pair of opposite pointers never overlaps. */
    private void arrow(GraphicsContext g, int from, int to, Color c, boolean dashed, int side) {
        if (to < 0 || to == from) return;
        double[] a = nodeCentre(from), b = nodeCentre(to);
        double mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
        double qx, qy;
        if (side > 0) {
            qx = mx * 0.75 + cx * 0.25;
            qy = my * 0.75 + cy * 0.25;
        } else {
            // Push the control point outwards, past the chord's midpoint, by a fraction of the radius.
            double dx = mx - cx, dy = my - cy, len = Math.max(1, Math.hypot(dx, dy));
            qx = mx + dx / len * r * 0.35;
            qy = my + dy / len * r * 0.35;
        }
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
