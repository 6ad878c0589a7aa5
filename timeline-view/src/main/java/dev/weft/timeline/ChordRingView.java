package dev.weft.timeline;

import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

import java.util.Map;
import java.util.TreeMap;

/**
 * The Chord ring as the nodes reported it up to the cursor: each reported identifier at its place on a
 * ring of 2^m positions, its successor as a solid arrow, its predecessor as a dashed one, dead nodes grey
 * (death is permanent, as the checker's snapshot has it). Report fields: ident, date, alive, succ, succ2, prdc.
 */
public class ChordRingView extends Region {

    private final Canvas canvas = new Canvas();
    private final ObjectProperty<ReportLog> reports = new SimpleObjectProperty<>(this, "reports", ReportLog.empty());
    private final IntegerProperty cursorOp = new SimpleIntegerProperty(this, "cursorOp", 0);
    private final IntegerProperty bits = new SimpleIntegerProperty(this, "bits", 6);
    private final ObjectProperty<TimelinePalette> palette = new SimpleObjectProperty<>(this, "palette", TimelinePalette.LIGHT);

    public ChordRingView() {
        getChildren().add(canvas);
        reports.addListener(o -> requestLayout());
        cursorOp.addListener(o -> requestLayout());
        bits.addListener(o -> requestLayout());
        palette.addListener(o -> requestLayout());
    }

    public ObjectProperty<ReportLog> reportsProperty() { return reports; }
    public IntegerProperty cursorOpProperty() { return cursorOp; }
    /** m of the identifier space (2^m positions); the case study uses 6. */
    public IntegerProperty bitsProperty() { return bits; }
    public ObjectProperty<TimelinePalette> paletteProperty() { return palette; }

    /** The latest state per identifier up to op: {date, alive, succ, succ2, prdc}; death is permanent. */
    public static Map<Integer, int[]> snapshot(ReportLog log, int op) {
        TreeMap<Integer, int[]> m = new TreeMap<>();
        int n = log.countUpTo(op);
        for (int i = 0; i < n; i++) {
            int ident = log.field(i, 0);
            int[] s = {log.field(i, 1), log.field(i, 2), log.field(i, 3), log.field(i, 4), log.field(i, 5)};
            int[] e = m.get(ident);
            if (e == null) {
                m.put(ident, s);
                continue;
            }
            boolean wasDead = e[1] == 0;
            if (s[0] >= e[0]) {
                e = s;
                m.put(ident, e);
            }
            if (wasDead) e[1] = 0;
        }
        return m;
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
        Map<Integer, int[]> snap = snapshot(reports.get(), cursorOp.get());
        g.setFill(p.text());
        g.setFont(Font.font("System", 11));
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.TOP);
        g.fillText("Chord ring after op " + cursorOp.get() + " (" + snap.size() + " reporting nodes, m = " + bits.get() + ")", 8, 6);
        if (snap.isEmpty()) {
            g.fillText("no RPT state reports up to this op", 8, 24);
            return;
        }
        double cx = w / 2, cy = h / 2 + 8, r = Math.max(20, Math.min(w, h) / 2 - 46);
        long ring = 1L << Math.max(1, Math.min(30, bits.get()));
        g.setStroke(p.grid());
        g.setLineWidth(1.5);
        g.strokeOval(cx - r, cy - r, 2 * r, 2 * r);
        for (var e : snap.entrySet()) {
            int[] s = e.getValue();
            if (s[1] == 0) continue;
            arrow(g, cx, cy, r, ring, e.getKey(), s[2], p.send(), false);
            arrow(g, cx, cy, r, ring, e.getKey(), s[4], p.recv(), true);
        }
        for (var e : snap.entrySet()) {
            double a = angle(e.getKey(), ring);
            double x = cx + r * Math.cos(a), y = cy + r * Math.sin(a);
            boolean alive = e.getValue()[1] != 0;
            g.setFill(alive ? p.send() : p.recvEmpty());
            g.fillOval(x - 7, y - 7, 14, 14);
            g.setFill(p.text());
            g.setTextAlign(TextAlignment.CENTER);
            g.setTextBaseline(VPos.CENTER);
            double lx = cx + (r + 22) * Math.cos(a), ly = cy + (r + 22) * Math.sin(a);
            g.fillText(e.getKey() + (alive ? "" : " ✗"), lx, ly);
        }
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.BOTTOM);
        g.setFill(p.send());
        g.fillText("— successor", 8, h - 22);
        g.setFill(p.recv());
        g.fillText("- - predecessor", 8, h - 6);
    }

    private static double angle(long ident, long ring) {
        return Math.floorMod(ident, ring) * 2 * Math.PI / ring - Math.PI / 2;
    }

    private static void arrow(GraphicsContext g, double cx, double cy, double r, long ring, int from, int to, Color c, boolean dashed) {
        if (to < 0 || to == from) return;
        double a1 = angle(from, ring), a2 = angle(to, ring);
        double x1 = cx + r * Math.cos(a1), y1 = cy + r * Math.sin(a1);
        double x2 = cx + r * Math.cos(a2), y2 = cy + r * Math.sin(a2);
        // Curve inwards so chords between neighbours stay visible.
        double mx = (x1 + x2) / 2 * 0.8 + cx * 0.2, my = (y1 + y2) / 2 * 0.8 + cy * 0.2;
        g.setStroke(c);
        g.setLineWidth(1.6);
        g.setLineDashes(dashed ? new double[] {5, 4} : null);
        g.beginPath();
        g.moveTo(x1, y1);
        g.quadraticCurveTo(mx, my, x2, y2);
        g.stroke();
        g.setLineDashes((double[]) null);
        double ang = Math.atan2(y2 - my, x2 - mx);
        double bx = x2 - 8 * Math.cos(ang), by = y2 - 8 * Math.sin(ang);
        g.setFill(c);
        g.fillPolygon(new double[] {bx, bx - 7 * Math.cos(ang - 0.45), bx - 7 * Math.cos(ang + 0.45)},
                new double[] {by, by - 7 * Math.sin(ang - 0.45), by - 7 * Math.sin(ang + 0.45)}, 3);
    }
}
