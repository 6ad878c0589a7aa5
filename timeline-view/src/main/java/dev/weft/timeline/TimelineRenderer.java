package dev.weft.timeline;

import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

import java.util.Arrays;

/**
 * Immediate-mode painter of the main timeline area. Touches only the visible op range: single marks (and
 * send→receive arrows) when few events are visible, otherwise a density strip per lane: per pixel column a bar
 * as tall as its op count (log scale) in the colour of the dominant kind, from the model's pyramid and per-lane
 * op lists, merged into runs of equal colour and height, so a frame costs O(width · lanes · log n)
 * whatever the recording size.
 */
final class TimelineRenderer {

    static final double GUTTER = 96;
    static final double RULER = 22;
    /** Draw single marks when there are at least this many pixels per visible event. */
    static final double DETAIL_PIXELS_PER_EVENT = 3;
    /** Arrows only when this few events are visible (they cost a line each). */
    static final int ARROW_LIMIT = 4000;

    private static final Font LABEL_FONT = Font.font("System", 11);
    private static final Font SMALL_FONT = Font.font("System", 10);

    private short[] masks = new short[0];
    private int[] counts = new int[0];
    /** Per pixel column and lane (column-major): the dominant kind's ordinal (-1: none) and the op count. */
    private byte[] columnKinds = new byte[0];
    private int[] columnCounts = new int[0];
    private int[] lossStart = new int[0];
    private int[] lossKind = new int[0];

    /** Everything a frame depends on, gathered by the view. */
    record Frame(TimelineModel model, AxisMapping mapping, Viewport viewport, AxisMode mode, TimelinePalette palette,
                 int[] laneRow, int rows, double[] rowTops, double[] rowHeights, int pinnedRows,
                 java.util.Set<Integer> pinned, java.util.Set<Integer> collapsed, double laneHeight, int hiddenKinds, int cursorOp, int selectedOp, int hoveredOp,
                 int[] markers, int[] verdicts, int errorOp, boolean arrows, double width, double height, int[] highlights, int[] bookmarks,
                 java.util.BitSet shown, int[] range, int measureOp, double scrollY, int[] planMarks) {

        /** Top of a row on screen (pinned rows stay under the ruler, the others are scrolled by scrollY). */
        double rowTop(int row) {
            return rowTops[row];
        }

        /** A row's height: the lane height, or a thin strip when collapsed. */
        double rowHeight(int row) {
            return rowHeights[row];
        }

        /** Where the last lane ends on screen (never below the frame). */
        double lanesBottom() {
            double bottom = RULER;
            for (int r = 0; r < rows; r++) bottom = Math.max(bottom, rowTops[r] + rowHeights[r]);
            return Math.min(height, bottom);
        }

        double laneCentre(int lane) {
            return rowTop(laneRow[lane]) + rowHeight(laneRow[lane]) / 2;
        }

        /** A mark's radius in its lane (small in a collapsed one). */
        double markRadius(int lane) {
            return Math.max(2.5, Math.min(5.5, rowHeight(laneRow[lane]) / 5));
        }

        boolean markVisible(int op) {
            return laneRow[model.lane(op)] >= 0 && (hiddenKinds & (1 << model.kindOrdinal(op))) == 0 && (shown == null || shown.get(op));
        }
    }

    void paint(GraphicsContext g, Frame f) {
        TimelinePalette p = f.palette;
        g.setFill(p.background());
        g.fillRect(0, 0, f.width, f.height);
        double plotW = f.width - GUTTER;
        if (plotW <= 1) return;

        // Lane stripes (full width) and labels (gutter); lanes scrolled under the ruler are clipped away.
        g.save();
        g.beginPath();
        g.rect(0, RULER, f.width, Math.max(0, f.height - RULER));
        g.clip();
        for (int lane = 0; lane < f.laneRow.length; lane++) {
            int row = f.laneRow[lane];
            if (row < 0) continue;
            if (row % 2 == 1) {
                g.setFill(p.laneStripe());
                g.fillRect(GUTTER, f.rowTop(row), plotW, f.rowHeight(row));
            }
            if (row == f.pinnedRows - 1) {   // the edge the other lanes scroll under
                g.setFill(p.grid());
                g.fillRect(0, f.rowTop(row) + f.rowHeight(row) - 1, f.width, 2);
            }
        }
        g.restore();

        g.save();
        g.beginPath();
        g.rect(GUTTER, 0, plotW, f.height);
        g.clip();
        g.translate(GUTTER, 0);
        paintRange(g, f, plotW);
        paintRuler(g, f, plotW);
        int[] vis = f.mapping.visibleOps();
        int count = vis[1] - vis[0];
        g.save();
        g.beginPath();
        g.rect(0, RULER, plotW, Math.max(0, f.height - RULER));
        g.clip();
        if (count > 0 && plotW / count >= DETAIL_PIXELS_PER_EVENT) {
            if (f.arrows && count <= ARROW_LIMIT) paintArrows(g, f, vis[0], vis[1]);
            paintMarks(g, f, vis[0], vis[1]);
        } else if (count > 0) {
            paintColumns(g, f, plotW);
        }
        if (count > 0 && plotW / count >= DETAIL_PIXELS_PER_EVENT) paintHighlightRings(g, f, vis[0], vis[1]);
        paintSelection(g, f);
        g.restore();
        paintMarkers(g, f, plotW);
        paintTicks(g, f, plotW, f.highlights, Color.web("#eab308"), 0);
        paintTicks(g, f, plotW, f.bookmarks, Color.web("#2563eb"), 1);
        paintTicks(g, f, plotW, f.planMarks, PLAN_MARKER, 2);
        paintMeasure(g, f);
        paintCursor(g, f);
        g.restore();

        g.setFill(p.gutter());
        g.fillRect(0, 0, GUTTER, f.height);
        g.setFill(p.text());
        g.setFont(LABEL_FONT);
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(f.mode == AxisMode.OP ? "op" : "virtual time", 6, RULER / 2);
        g.save();
        g.beginPath();
        g.rect(0, RULER, GUTTER, Math.max(0, f.height - RULER));
        g.clip();
        for (int lane = 0; lane < f.laneRow.length; lane++) {
            int row = f.laneRow[lane];
            if (row < 0) continue;
            boolean collapsed = f.collapsed.contains(lane);
            // ▸ collapsed / ▾ expanded (a click toggles it), ⊤ pinned to the top.
            String label = (collapsed ? "▸ " : "▾ ") + f.model.lanes().get(lane).label() + (f.pinned.contains(lane) ? "  ⊤" : "");
            g.setFont(collapsed ? SMALL_FONT : LABEL_FONT);
            g.fillText(label, 4, f.rowTop(row) + f.rowHeight(row) / 2);
        }
        g.setFont(LABEL_FONT);
        g.restore();
    }

    private void paintRuler(GraphicsContext g, Frame f, double plotW) {
        TimelinePalette p = f.palette;
        Viewport v = f.viewport;
        double step = niceStep(v.span() * 90 / plotW);
        double first = Math.ceil(v.start() / step) * step;
        g.setStroke(p.grid());
        g.setLineWidth(1);
        g.setFill(p.text());
        g.setFont(SMALL_FONT);
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.CENTER);
        double bottom = f.lanesBottom();
        for (double t = first; t <= v.end(); t += step) {
            double x = Math.floor(v.xOf(t)) + 0.5;
            g.strokeLine(x, RULER - 6, x, bottom);
            g.fillText(f.mode == AxisMode.OP ? formatCount(t) : formatNs(t), x + 3, RULER / 2 - 1);
        }
        g.strokeLine(0, RULER - 0.5, plotW, RULER - 0.5);
    }

    private void paintArrows(GraphicsContext g, Frame f, int from, int to) {
        g.setStroke(f.palette.arrow());
        g.setFill(f.palette.arrow());
        g.setLineWidth(1.2);
        for (int op = from; op < to; op++) {
            int other = f.model.partner(op);
            if (other < 0) continue;
            MarkKind k = f.model.kind(op);
            // Each arrow once: from its visible send, or from its visible receive when the send does not draw it
            // (off-screen, or a stream write whose bytes several reads took).
            if (!k.startsFlow() && other >= from && f.model.partner(other) == op) continue;
            int send = k.startsFlow() ? op : other;
            int recv = k.startsFlow() ? other : op;
            if (!f.markVisible(send) || !f.markVisible(recv)) continue;
            double x1 = f.mapping.xOf(send), y1 = f.laneCentre(f.model.lane(send));
            double x2 = f.mapping.xOf(recv), y2 = f.laneCentre(f.model.lane(recv));
            double ang;
            if (Math.abs(y2 - y1) < 0.5) {
                // Same lane (two connections of one node): an arc over the lane, so it does not hide the marks.
                double cx = (x1 + x2) / 2, cy = y1 - Math.min(f.laneHeight * 0.45, 8 + Math.abs(x2 - x1) * 0.15);
                g.beginPath();
                g.moveTo(x1, y1);
                g.quadraticCurveTo(cx, cy, x2, y2);
                g.stroke();
                ang = Math.atan2(y2 - cy, x2 - cx);
            } else {
                g.strokeLine(x1, y1, x2, y2);
                ang = Math.atan2(y2 - y1, x2 - x1);
            }
            double r = 5;
            double bx = x2 - r * Math.cos(ang), by = y2 - r * Math.sin(ang);
            g.fillPolygon(new double[] {bx, bx - 6 * Math.cos(ang - 0.45), bx - 6 * Math.cos(ang + 0.45)},
                    new double[] {by, by - 6 * Math.sin(ang - 0.45), by - 6 * Math.sin(ang + 0.45)}, 3);
        }
    }

    private void paintMarks(GraphicsContext g, Frame f, int from, int to) {
        for (int op = from; op < to; op++) {
            if (!f.markVisible(op)) continue;
            int lane = f.model.lane(op);
            drawMark(g, f.palette, f.model.kind(op), f.mapping.xOf(op), f.laneCentre(lane), f.markRadius(lane));
        }
    }

    static void drawMark(GraphicsContext g, TimelinePalette p, MarkKind k, double x, double y, double r) {
        Color c = p.of(k);
        g.setFill(c);
        g.setStroke(c);
        switch (k) {
            case SEND, RECV -> g.fillOval(x - r, y - r, 2 * r, 2 * r);
            case SEND_DROPPED -> {
                g.setLineWidth(2.2);
                g.strokeLine(x - r, y - r, x + r, y + r);
                g.strokeLine(x - r, y + r, x + r, y - r);
            }
            case SEND_NO_RECEIVER -> {
                g.setLineWidth(2);
                g.strokeRect(x - r + 1, y - r + 1, 2 * r - 2, 2 * r - 2);
            }
            case RECV_EMPTY -> {
                g.setLineWidth(1);
                g.strokeOval(x - r * 0.6, y - r * 0.6, 1.2 * r, 1.2 * r);
            }
            case VIOLATION -> g.fillPolygon(new double[] {x, x - r - 1, x + r + 1}, new double[] {y - r - 2, y + r, y + r}, 3);
            case END -> g.fillRect(x - 1.5, y - r - 3, 3, 2 * r + 6);
            // A stream's bytes: a bar (a range of bytes) rather than a datagram's dot.
            case TCP_SEND -> g.fillRect(x - r, y - r * 0.55, 2 * r, 1.1 * r);
            case TCP_RECV -> {
                g.setLineWidth(1.6);
                g.strokeRect(x - r + 0.8, y - r * 0.55, 2 * r - 1.6, 1.1 * r);
            }
            case TCP_OPEN -> {
                g.setLineWidth(1.5);
                g.strokePolygon(new double[] {x, x + r, x, x - r}, new double[] {y - r, y, y + r, y}, 4);
            }
            case TCP_RESET -> {
                g.setLineWidth(2.2);
                g.strokeLine(x - r, y - r, x + r, y + r);
                g.strokeLine(x - r, y + r, x + r, y - r);
                g.strokeLine(x, y - r, x, y + r);
            }
            default -> {
                g.setLineWidth(1.5);
                g.strokeLine(x, y - r, x, y + r);
            }
        }
    }

    /**
     * Dense mode, a density strip per lane: per pixel column, a bar as tall as the column's op count in that lane
     * (log scale against the busiest column on screen) in the colour of its dominant kind, plus a loss strip on top.
     * A quiet stretch stays visibly thinner than a busy one instead of every column drawing the same solid bar.
     */
    private void paintColumns(GraphicsContext g, Frame f, double plotW) {
        int lanes = f.model.laneCount();
        int cols = (int) Math.ceil(plotW);
        if (masks.length < lanes) {
            masks = new short[lanes];
            counts = new int[lanes];
            lossStart = new int[lanes];
            lossKind = new int[lanes];
        }
        if (columnKinds.length < (cols + 1) * lanes) {
            columnKinds = new byte[(cols + 1) * lanes];
            columnCounts = new int[(cols + 1) * lanes];
        }
        Arrays.fill(lossKind, 0, lanes, -1);
        int visibleKinds = MarkKind.ALL & ~f.hiddenKinds;
        int lossBits = MarkKind.SEND_DROPPED.bit() | MarkKind.SEND_NO_RECEIVER.bit();
        int busiest = 1;
        int opA = f.mapping.firstOpNotBefore(f.viewport.valueAt(0));
        for (int col = 0; col <= cols; col++) {
            int opB = col == cols ? opA : f.mapping.firstOpNotBefore(f.viewport.valueAt(col + 1));
            if (col < cols && opB > opA && f.shown != null) filteredMasks(f, opA, opB);
            else if (col < cols && opB > opA) {
                f.model.masksInRange(opA, opB, masks);
                f.model.countsInRange(opA, opB, counts);
            } else {
                Arrays.fill(masks, 0, lanes, (short) 0);
                Arrays.fill(counts, 0, lanes, 0);
            }
            for (int lane = 0; lane < lanes; lane++) {
                int at = col * lanes + lane;
                if (f.laneRow[lane] < 0) {
                    columnKinds[at] = -1;
                    continue;
                }
                int m = masks[lane] & visibleKinds;
                MarkKind dom = MarkKind.dominant(m & ~lossBits);
                columnKinds[at] = (byte) (dom == null ? -1 : dom.ordinal());
                // Hidden kinds still count when a visible kind shares the column: the strip is the lane's activity.
                columnCounts[at] = dom == null ? 0 : counts[lane];
                if (dom != null) busiest = Math.max(busiest, counts[lane]);
                MarkKind loss = MarkKind.dominant(m & lossBits);
                int lk = loss == null ? -1 : loss.ordinal();
                if (lk != lossKind[lane]) {
                    flushLoss(g, f, lane, lossStart[lane], col, lossKind[lane]);
                    lossKind[lane] = lk;
                    lossStart[lane] = col;
                }
            }
            opA = opB;
        }
        double scale = Math.log1p(busiest);
        for (int lane = 0; lane < lanes; lane++) {
            if (f.laneRow[lane] < 0) continue;
            double h = f.rowHeight(f.laneRow[lane]);
            double bottom = f.rowTop(f.laneRow[lane]) + h * 0.86;
            double full = h * 0.6;
            int runFrom = 0, runKind = -1, runPx = 0;
            for (int col = 0; col <= cols; col++) {
                int at = col * lanes + lane;
                int kind = col == cols ? -1 : columnKinds[at];
                int px = kind < 0 ? 0 : (int) Math.max(2, Math.round(full * Math.log1p(columnCounts[at]) / scale));
                if (kind != runKind || px != runPx) {
                    if (runKind >= 0 && col > runFrom) {
                        g.setFill(f.palette.of(MarkKind.ofOrdinal(runKind)));
                        g.fillRect(runFrom, bottom - runPx, col - runFrom, runPx);
                    }
                    runFrom = col;
                    runKind = kind;
                    runPx = px;
                }
            }
        }
    }

    /** Column masks and counts when filters hide single ops: a walk over the column's ops (only while a filter is on). */
    private void filteredMasks(Frame f, int from, int to) {
        Arrays.fill(masks, 0, f.model.laneCount(), (short) 0);
        Arrays.fill(counts, 0, f.model.laneCount(), 0);
        for (int op = f.shown.nextSetBit(from); op >= 0 && op < to; op = f.shown.nextSetBit(op + 1)) {
            masks[f.model.lane(op)] |= (short) (1 << f.model.kindOrdinal(op));
            counts[f.model.lane(op)]++;
        }
    }

    /** The selected range: a translucent band over the lanes, its edges solid. */
    private void paintRange(GraphicsContext g, Frame f, double plotW) {
        if (f.range == null || f.model.size() == 0) return;
        double x0 = f.mapping.xOf(Math.max(0, f.range[0]));
        double x1 = f.mode == AxisMode.OP ? f.viewport.xOf(Math.min(f.model.size() - 1, f.range[1]) + 1.0)
                : f.mapping.xOf(Math.min(f.model.size() - 1, f.range[1]));
        double bottom = f.lanesBottom();
        g.setFill(Color.web("#3b82f6", 0.13));
        g.fillRect(x0, 0, Math.max(2, x1 - x0), bottom);
        g.setStroke(Color.web("#2563eb"));
        g.setLineWidth(1.5);
        g.strokeLine(x0, 0, x0, bottom);
        g.strokeLine(x1, 0, x1, bottom);
    }

    /** A fault-plan deviation's ruler marker (teal, apart from the violation and search colours). */
    static final Color PLAN_MARKER = Color.web("#0d9488");

    /** A plan deviation on the ruler: a hollow diamond centred at (x, y). */
    static void planMarker(GraphicsContext g, double x, double y) {
        g.setLineWidth(2);
        g.strokePolygon(new double[] {x, x + 5, x, x - 5}, new double[] {y - 5, y, y + 5, y}, 4);
    }

    /** A tick per match / bookmark / plan deviation on the ruler, one per pixel column at most. */
    private void paintTicks(GraphicsContext g, Frame f, double plotW, int[] ops, Color c, int style) {
        if (ops == null || ops.length == 0) return;
        g.setFill(c);
        g.setStroke(c);
        double lastX = Double.NaN;
        for (int i = lowerBound(ops, f.mapping.visibleOps()[0]); i < ops.length; i++) {
            double x = Math.floor(f.mapping.xOf(ops[i])) + 0.5;
            if (x > plotW + 2) break;
            if (x == lastX) continue;
            lastX = x;
            if (style == 0) g.fillRect(x - 1.5, RULER - 9, 3, 9);
            else if (style == 2) planMarker(g, x, RULER - 6);
            else {
                g.setLineWidth(1.5);
                g.strokeLine(x, 2, x, RULER);
                g.fillPolygon(new double[] {x, x + 8, x}, new double[] {2, 6, 10}, 3);
            }
        }
    }

    private void paintHighlightRings(GraphicsContext g, Frame f, int from, int to) {
        int[] ops = f.highlights;
        if (ops == null || ops.length == 0) return;
        g.setStroke(Color.web("#eab308"));
        g.setLineWidth(2);
        for (int i = lowerBound(ops, from); i < ops.length && ops[i] < to; i++) {
            if (!f.markVisible(ops[i])) continue;
            double x = f.mapping.xOf(ops[i]), y = f.laneCentre(f.model.lane(ops[i]));
            g.strokeRect(x - 7, y - 7, 14, 14);
        }
    }

    /** From the selected mark to the measured one: a bracket labelled with the op and virtual-time distance. */
    private void paintMeasure(GraphicsContext g, Frame f) {
        int a = f.selectedOp, b = f.measureOp;
        if (a < 0 || b < 0 || a >= f.model.size() || b >= f.model.size()) return;
        double xa = f.mapping.xOf(a), xb = f.mapping.xOf(b);
        double y = RULER + 10;
        g.setStroke(Color.web("#7c3aed"));
        g.setFill(Color.web("#7c3aed"));
        g.setLineWidth(1.5);
        g.strokeLine(xa, y, xb, y);
        g.strokeLine(xa, y - 5, xa, y + 5);
        g.strokeLine(xb, y - 5, xb, y + 5);
        g.setFont(SMALL_FONT);
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.BOTTOM);
        g.fillText(f.model.measure(a, b), (xa + xb) / 2, y - 2);
    }

    private static void flushLoss(GraphicsContext g, Frame f, int lane, int fromCol, int toCol, int kind) {
        if (kind < 0 || toCol <= fromCol) return;
        double top = f.rowTop(f.laneRow[lane]);
        double h = f.rowHeight(f.laneRow[lane]);
        g.setFill(f.palette.of(MarkKind.ofOrdinal(kind)));
        g.fillRect(fromCol, top + h * 0.06, toCol - fromCol, Math.max(2, h * 0.14));
    }

    /** Amber: a network invariant's marker (fifo, dup), told apart from a verdict's red by colour and shape. */
    static final Color NETWORK_MARKER = Color.web("#d97706");

    /**
     * Violation records, external markers and the verification error, one line per pixel column at most. Network
     * invariants (fifo / dup) are an amber ▼ with a faint line; verdicts about the program (protocol, deadlock,
     * stream) a red ◆ with a solid line, drawn last so a verdict is never hidden under a crowd of fifo marks.
     */
    private void paintMarkers(GraphicsContext g, Frame f, double plotW) {
        double bottom = f.lanesBottom();
        g.setLineWidth(1);
        double lastX = Double.NaN;
        int[] all = f.markers;
        int i = lowerBound(all, f.mapping.visibleOps()[0]);
        for (; i < all.length; i++) {
            if (Arrays.binarySearch(f.verdicts, all[i]) >= 0) continue;
            double x = f.mapping.xOf(all[i]);
            if (x > plotW + 2) break;
            double px = Math.floor(x) + 0.5;
            if (px == lastX) continue;
            lastX = px;
            g.setStroke(NETWORK_MARKER.deriveColor(0, 1, 1, 0.35));
            g.strokeLine(px, RULER, px, bottom);
            g.setFill(NETWORK_MARKER);
            networkMarker(g, px, RULER);
        }
        lastX = Double.NaN;
        for (i = lowerBound(f.verdicts, f.mapping.visibleOps()[0]); i < f.verdicts.length; i++) {
            double x = f.mapping.xOf(f.verdicts[i]);
            if (x > plotW + 8) break;
            double px = Math.floor(x) + 0.5;
            if (px == lastX) continue;
            lastX = px;
            g.setStroke(f.palette.violation().deriveColor(0, 1, 1, 0.8));
            g.setLineWidth(2);
            g.strokeLine(px, RULER, px, bottom);
            g.setLineWidth(1);
            g.setFill(f.palette.violation());
            verdictMarker(g, px, RULER);
        }
        if (f.errorOp >= 0 && f.errorOp <= f.model.size()) {
            // A problem after the last good record sits just right of it, kept on screen.
            double x = f.errorOp < f.model.size() ? f.mapping.xOf(f.errorOp)
                    : f.viewport.xOf(f.model.size() == 0 ? 0 : f.mapping.valueOf(f.model.size() - 1)) + 6;
            x = Math.min(x, plotW - 2);
            g.setStroke(f.palette.dropped());
            g.setLineWidth(3);
            g.setLineDashes(6, 4);
            g.strokeLine(x, RULER, x, bottom);
            g.setLineDashes((double[]) null);
            g.setFill(f.palette.dropped());
            g.setFont(LABEL_FONT);
            boolean roomRight = x + 70 < plotW;
            g.setTextAlign(roomRight ? TextAlignment.LEFT : TextAlignment.RIGHT);
            g.setTextBaseline(VPos.TOP);
            g.fillText("✗ op " + f.errorOp + ": bad", roomRight ? x + 5 : x - 5, RULER + 2);
        }
    }

    /** The ruler's ▼ of a network invariant, its tip at (x, baseline). */
    static void networkMarker(GraphicsContext g, double x, double baseline) {
        g.fillPolygon(new double[] {x - 5, x + 5, x}, new double[] {baseline - 1, baseline - 1, baseline + 7}, 3);
    }

    /** The ruler's ◆ of a verdict, centred on x just above the baseline. */
    static void verdictMarker(GraphicsContext g, double x, double baseline) {
        double cy = baseline - 4;
        g.fillPolygon(new double[] {x - 7, x, x + 7, x}, new double[] {cy, cy - 7, cy, cy + 7}, 4);
    }

    private void paintSelection(GraphicsContext g, Frame f) {
        ring(g, f, f.hoveredOp, f.palette.hover(), 1.5);
        if (f.selectedOp >= 0 && f.selectedOp < f.model.size()) {
            int partner = f.model.partner(f.selectedOp);
            if (partner >= 0) ring(g, f, partner, f.palette.selection(), 1.5);
            ring(g, f, f.selectedOp, f.palette.selection(), 2.5);
        }
    }

    private static void ring(GraphicsContext g, Frame f, int op, Color c, double w) {
        if (op < 0 || op >= f.model.size() || f.laneRow[f.model.lane(op)] < 0) return;
        double x = f.mapping.xOf(op), y = f.laneCentre(f.model.lane(op));
        double r = Math.max(6, Math.min(9, f.laneHeight / 3));
        g.setStroke(c);
        g.setLineWidth(w);
        g.strokeOval(x - r, y - r, 2 * r, 2 * r);
    }

    private void paintCursor(GraphicsContext g, Frame f) {
        if (f.cursorOp < 0 || f.cursorOp >= f.model.size()) return;
        // "State after op N": the line sits just right of op N's mark.
        double x = f.mode == AxisMode.OP ? f.viewport.xOf(f.cursorOp + 1.0) : f.mapping.xOf(f.cursorOp);
        double bottom = f.lanesBottom();
        g.setStroke(f.palette.cursor());
        g.setLineWidth(2);
        g.strokeLine(x, RULER, x, bottom);
        g.setFill(f.palette.cursor());
        g.fillPolygon(new double[] {x - 6, x + 6, x}, new double[] {0, 0, 9}, 3);
        g.setFont(SMALL_FONT);
        g.setTextBaseline(VPos.BOTTOM);
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText("op " + f.cursorOp, x + 4, bottom - 2);
    }

    static int lowerBound(int[] sorted, int key) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** 1, 2 or 5 times a power of ten, at least the given value. */
    static double niceStep(double atLeast) {
        if (atLeast <= 1) return 1;
        double pow = Math.pow(10, Math.floor(Math.log10(atLeast)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * pow >= atLeast) return m * pow;
        }
        return 10 * pow;
    }

    static String formatCount(double v) {
        long n = Math.round(v);
        if (n >= 1_000_000 && n % 1000 == 0) return (n / 1000) + "k";
        return Long.toString(n);
    }

    static String formatNs(double ns) {
        double a = Math.abs(ns);
        if (a >= 1e9) return trim(ns / 1e9) + " s";
        if (a >= 1e6) return trim(ns / 1e6) + " ms";
        if (a >= 1e3) return trim(ns / 1e3) + " µs";
        return trim(ns) + " ns";
    }

    private static String trim(double v) {
        String s = String.format(java.util.Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
