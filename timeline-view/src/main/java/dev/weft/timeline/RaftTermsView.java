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

import java.util.TreeMap;

/**
 * Raft terms over the run: one lane per reporting node, each report drawn at its op as a mark labelled with
 * its term, leaders (role 2) as filled blocks, candidates hollow; two leaders in one term are what the
 * RAFT_FIX=0 runs show. The cursor is a vertical line. Report fields: node, date, alive, term, role, votedFor.
 */
public class RaftTermsView extends Region {

    private static final Color[] TERM_COLORS = {
        Color.web("#2563eb"), Color.web("#16a34a"), Color.web("#d97706"), Color.web("#9333ea"),
        Color.web("#0891b2"), Color.web("#dc2626"), Color.web("#4d7c0f"), Color.web("#be185d")};

    private final Canvas canvas = new Canvas();
    private final ObjectProperty<ReportLog> reports = new SimpleObjectProperty<>(this, "reports", ReportLog.empty());
    private final IntegerProperty cursorOp = new SimpleIntegerProperty(this, "cursorOp", 0);
    private final ObjectProperty<TimelinePalette> palette = new SimpleObjectProperty<>(this, "palette", TimelinePalette.LIGHT);

    public RaftTermsView() {
        getChildren().add(canvas);
        reports.addListener(o -> requestLayout());
        cursorOp.addListener(o -> requestLayout());
        palette.addListener(o -> requestLayout());
    }

    public ObjectProperty<ReportLog> reportsProperty() { return reports; }
    public IntegerProperty cursorOpProperty() { return cursorOp; }
    public ObjectProperty<TimelinePalette> paletteProperty() { return palette; }

    @Override
    protected void layoutChildren() {
        canvas.setWidth(getWidth());
        canvas.setHeight(getHeight());
        paint(canvas.getGraphicsContext2D(), getWidth(), getHeight());
    }

    private void paint(GraphicsContext g, double w, double h) {
        TimelinePalette p = palette.get();
        ReportLog log = reports.get();
        g.setFill(p.background());
        g.fillRect(0, 0, w, h);
        g.setFont(Font.font("System", 11));
        g.setFill(p.text());
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.TOP);
        if (log.size() == 0) {
            g.fillText("no RPT state reports in this recording", 8, 6);
            return;
        }
        TreeMap<Integer, Integer> rowOf = new TreeMap<>();
        for (int i = 0; i < log.size(); i++) rowOf.putIfAbsent(log.field(i, 0), 0);
        int row = 0;
        for (var e : rowOf.entrySet()) e.setValue(row++);
        double left = 70, top = 24, plotW = Math.max(1, w - left - 10);
        double laneH = Math.max(14, Math.min(40, (h - top - 10) / rowOf.size()));
        int firstOp = log.op(0), lastOp = Math.max(firstOp + 1, log.op(log.size() - 1));
        g.fillText("Raft terms and roles (reports up to op " + cursorOp.get() + " solid; block = leader tN, ring = candidate, × = crash-restart)", 8, 6);
        g.setTextBaseline(VPos.CENTER);
        for (var e : rowOf.entrySet()) {
            double y = top + e.getValue() * laneH + laneH / 2;
            g.setFill(p.text());
            g.fillText("node " + e.getKey(), 8, y);
            g.setStroke(p.grid());
            g.setLineWidth(1);
            g.strokeLine(left, y, left + plotW, y);
        }
        int shown = log.countUpTo(cursorOp.get());
        double lastX = -1;
        for (int i = 0; i < log.size(); i++) {
            double x = left + (double) (log.op(i) - firstOp) / (lastOp - firstOp) * plotW;
            double y = top + rowOf.get(log.field(i, 0)) * laneH + laneH / 2;
            int term = log.field(i, 3), role = log.field(i, 4);
            Color c = TERM_COLORS[Math.floorMod(term, TERM_COLORS.length)];
            if (i >= shown) c = c.deriveColor(0, 0.4, 1, 0.35);
            g.setFill(c);
            g.setStroke(c);
            double s = laneH * 0.35;
            if (log.field(i, 2) == 0) {
                // A crash-restart tick: a small cross, not a mark that hides its neighbours.
                g.setLineWidth(1.5);
                g.strokeLine(x - 4, y - 4, x + 4, y + 4);
                g.strokeLine(x - 4, y + 4, x + 4, y - 4);
            } else if (role == 2) {
                g.fillRect(x - 2, y - s, 5, 2 * s);
            } else if (role == 1) {
                g.setLineWidth(1.5);
                g.strokeOval(x - s / 2, y - s / 2, s, s);
            } else {
                g.fillOval(x - 1.5, y - 1.5, 3, 3);
            }
            if (role == 2 && x - lastX > 18) {
                g.setFill(p.text());
                g.setTextAlign(TextAlignment.CENTER);
                g.fillText("t" + term, x, y - s - 6);
                g.setTextAlign(TextAlignment.LEFT);
                lastX = x;
            }
        }
        double cx = left + (double) (Math.max(firstOp, Math.min(lastOp, cursorOp.get())) - firstOp) / (lastOp - firstOp) * plotW;
        g.setStroke(p.cursor());
        g.setLineWidth(2);
        g.strokeLine(cx, top, cx, top + rowOf.size() * laneH);
    }
}
