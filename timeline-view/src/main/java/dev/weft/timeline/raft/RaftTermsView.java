package dev.weft.timeline.raft;

import dev.weft.timeline.ReportLog;
import dev.weft.timeline.TimelinePalette;
import dev.weft.timeline.AxisNumbers;
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
 * Once the cursor reaches an ElectionSafety violation ({@link RaftTimeline#violations()}), the first leader
 * report of each of that term's two leaders gets a red outline and a red line names the broken invariant.
 * The x axis is labelled in ops; a legend explains every mark.
 */
public class RaftTermsView extends Region {

    private static final Color[] TERM_COLORS = {
        Color.web("#2563eb"), Color.web("#16a34a"), Color.web("#d97706"), Color.web("#9333ea"),
        Color.web("#0891b2"), Color.web("#dc2626"), Color.web("#4d7c0f"), Color.web("#be185d")};

    private final Canvas canvas = new Canvas();
    private final ObjectProperty<ReportLog> reports = new SimpleObjectProperty<>(this, "reports", ReportLog.empty());
    private final IntegerProperty cursorOp = new SimpleIntegerProperty(this, "cursorOp", 0);
    private final ObjectProperty<TimelinePalette> palette = new SimpleObjectProperty<>(this, "palette", TimelinePalette.LIGHT);
    private final ObjectProperty<dev.weft.raft.RaftTimeline> raft = new SimpleObjectProperty<>(this, "raft");
    private final java.util.List<double[]> highlights = new java.util.ArrayList<>();
    private String headline = "";

    public static final Color OFFENDER = Color.web("#dc2626");

    public RaftTermsView() {
        raft.addListener(o -> requestLayout());
        getChildren().add(canvas);
        reports.addListener(o -> requestLayout());
        cursorOp.addListener(o -> requestLayout());
        palette.addListener(o -> requestLayout());
    }

    public ObjectProperty<ReportLog> reportsProperty() { return reports; }
    public IntegerProperty cursorOpProperty() { return cursorOp; }
    public ObjectProperty<TimelinePalette> paletteProperty() { return palette; }
    /** The checker's view of the run, for the ElectionSafety highlight (optional). */
    public ObjectProperty<dev.weft.raft.RaftTimeline> raftProperty() { return raft; }

    /** The violations shown at the cursor: those whose second leader was reported at or before it. */
    public java.util.List<dev.weft.raft.RaftViolation> violationsShown() {
        dev.weft.raft.RaftTimeline t = raft.get();
        if (t == null) return java.util.List.of();
        return t.violations().stream().filter(v -> v.op() <= cursorOp.get()).toList();
    }

    /** The red outlines of the last frame, {x, y, w, h} each (for tests). */
    public java.util.List<double[]> highlightBoxes() { return java.util.List.copyOf(highlights); }

    /** The red line naming the broken invariant in the last frame, or "". */
    public String headline() { return headline; }

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
        double left = 70, top = 42, plotW = Math.max(1, w - left - 10);
        double laneH = Math.max(14, Math.min(40, (h - top - 62) / rowOf.size()));
        int firstOp = log.op(0), lastOp = Math.max(firstOp + 1, log.op(log.size() - 1));
        g.fillText("Raft terms and roles after op " + cursorOp.get() + " (later reports faded)", 8, 6);
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
        double axisY = top + rowOf.size() * laneH + 4;
        axis(g, p, left, plotW, axisY, firstOp, lastOp);
        highlight(g, log, rowOf, left, top, plotW, laneH, firstOp, lastOp);
        legend(g, p, h);
        double cx = left + (double) (Math.max(firstOp, Math.min(lastOp, cursorOp.get())) - firstOp) / (lastOp - firstOp) * plotW;
        g.setStroke(p.cursor());
        g.setLineWidth(2);
        g.strokeLine(cx, top, cx, top + rowOf.size() * laneH);
    }

    private void axis(GraphicsContext g, TimelinePalette p, double left, double plotW, double y, int firstOp, int lastOp) {
        g.setStroke(p.grid());
        g.setLineWidth(1);
        g.strokeLine(left, y, left + plotW, y);
        g.setFill(p.text());
        g.setFont(Font.font("System", 10));
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.TOP);
        double step = AxisNumbers.niceStep((lastOp - firstOp) * 80.0 / plotW);
        for (double op = Math.ceil(firstOp / step) * step; op <= lastOp; op += step) {
            double x = left + (op - firstOp) / (lastOp - firstOp) * plotW;
            g.strokeLine(x, y, x, y + 4);
            g.fillText(AxisNumbers.formatCount(op), x, y + 5);
        }
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText("op", 8, y + 5);
        g.setFont(Font.font("System", 11));
    }

    private void legend(GraphicsContext g, TimelinePalette p, double h) {
        g.setFill(p.text());
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.BOTTOM);
        g.setFont(Font.font("System", 11));
        g.fillText("▮ leader (label tN = term N)   ○ candidate   · follower   × crash-restart   colour = term", 8, h - 18);
        g.fillText("red outline: two leaders in one term (ElectionSafety)   faded: reports after the cursor", 8, h - 4);
    }

    /** Red outlines round the two leaders of a term that had two, once the cursor has reached the second. */
    private void highlight(GraphicsContext g, ReportLog log, TreeMap<Integer, Integer> rowOf, double left, double top,
                           double plotW, double laneH, int firstOp, int lastOp) {
        highlights.clear();
        headline = "";
        java.util.List<dev.weft.raft.RaftViolation> shown = violationsShown();
        if (shown.isEmpty()) return;
        StringBuilder words = new StringBuilder();
        for (dev.weft.raft.RaftViolation v : shown) {
            for (int node : new int[] {v.first(), v.second()}) {
                // The node's first leader report in that term, at or before the violation.
                for (int i = 0; i < log.size() && log.op(i) <= v.op(); i++) {
                    if (log.field(i, 0) != node || log.field(i, 3) != v.term() || log.field(i, 4) != 2 || log.field(i, 2) == 0) continue;
                    Integer row = rowOf.get(node);
                    if (row == null) break;
                    double x = left + (double) (log.op(i) - firstOp) / (lastOp - firstOp) * plotW;
                    double y = top + row * laneH;
                    double[] box = {x - 7, y + 1, 15, laneH - 2};
                    highlights.add(box);
                    g.setStroke(OFFENDER);
                    g.setLineWidth(2.5);
                    g.strokeRect(box[0], box[1], box[2], box[3]);
                    break;
                }
            }
            if (words.length() > 0) words.append("; ");
            words.append("term ").append(v.term()).append(" has two leaders, ").append(v.first()).append(" and ").append(v.second())
                    .append(" (second at op ").append(v.op()).append(")");
        }
        headline = "✗ ElectionSafety violated: " + words;
        g.setFill(OFFENDER);
        g.setFont(Font.font("System", javafx.scene.text.FontWeight.BOLD, 12));
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.TOP);
        g.fillText(headline, 8, 22);
        g.setFont(Font.font("System", 11));
    }
}
