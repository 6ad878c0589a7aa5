package dev.weft.timeline;

import javafx.scene.canvas.GraphicsContext;

/**
 * The overview strip under the timeline: the whole recording summarised per pixel column (content, redrawn
 * only when the model, filters or size change) and, on a separate layer, the visible window, the cursor and
 * the violation markers (redrawn every frame, which is cheap).
 */
final class MinimapRenderer {

    private short[] masks = new short[0];

    void paintContent(GraphicsContext g, TimelineModel model, AxisMode mode, int[] laneRow, int rows, int hiddenKinds,
                      TimelinePalette p, double width, double height) {
        g.setFill(p.gutter());
        g.fillRect(0, 0, width, height);
        double plotW = width - TimelineRenderer.GUTTER;
        if (plotW <= 1 || model.size() == 0 || rows == 0) return;
        Viewport whole = wholeViewport(model, mode, plotW);
        AxisMapping m = new AxisMapping(model, mode, whole);
        int lanes = model.laneCount();
        if (masks.length < lanes) masks = new short[lanes];
        double rowH = (height - 4) / rows;
        int visibleKinds = MarkKind.ALL & ~hiddenKinds;
        g.setFill(p.background());
        g.fillRect(TimelineRenderer.GUTTER, 0, plotW, height);
        int opA = 0;
        for (int col = 0; col < (int) plotW; col++) {
            int opB = m.firstOpNotBefore(whole.valueAt(col + 1));
            if (opB > opA) {
                model.masksInRange(opA, opB, masks);
                for (int lane = 0; lane < lanes; lane++) {
                    if (laneRow[lane] < 0) continue;
                    MarkKind k = MarkKind.dominant(masks[lane] & visibleKinds);
                    if (k == null) continue;
                    g.setFill(p.of(k));
                    g.fillRect(TimelineRenderer.GUTTER + col, 2 + laneRow[lane] * rowH, 1, Math.max(1, rowH - 1));
                }
            }
            opA = opB;
        }
    }

    void paintOverlay(GraphicsContext g, TimelineModel model, AxisMode mode, Viewport view, int[] markers, int[] verdicts, int errorOp,
                      int cursorOp, TimelinePalette p, double width, double height) {
        g.clearRect(0, 0, width, height);
        double plotW = width - TimelineRenderer.GUTTER;
        if (plotW <= 1 || model.size() == 0) return;
        Viewport whole = wholeViewport(model, mode, plotW);
        AxisMapping m = new AxisMapping(model, mode, whole);
        g.save();
        g.translate(TimelineRenderer.GUTTER, 0);
        g.setStroke(TimelineRenderer.NETWORK_MARKER);
        g.setLineWidth(1);
        double last = Double.NaN;
        for (int op : markers) {
            double x = Math.floor(m.xOf(op)) + 0.5;
            if (x == last) continue;
            last = x;
            g.strokeLine(x, 0, x, 6);
        }
        // Verdicts: a red line the strip's full height, so the one that matters is found at a glance.
        g.setStroke(p.violation());
        g.setLineWidth(2);
        for (int op : verdicts) {
            double x = Math.floor(m.xOf(op)) + 0.5;
            g.strokeLine(x, 0, x, height);
        }
        if (errorOp >= 0) {
            double x = errorOp < model.size() ? m.xOf(errorOp) : plotW - 2;
            g.setStroke(p.dropped());
            g.setLineWidth(3);
            g.strokeLine(x, 0, x, height);
        }
        if (cursorOp >= 0 && cursorOp < model.size()) {
            g.setStroke(p.cursor());
            g.setLineWidth(1.5);
            double x = m.xOf(cursorOp);
            g.strokeLine(x, 0, x, height);
        }
        double x0 = whole.xOf(view.start()), x1 = whole.xOf(view.end());
        double w = Math.max(3, x1 - x0);
        g.setFill(p.window());
        g.fillRect(x0, 0, w, height);
        g.setStroke(p.send());
        g.setLineWidth(1.5);
        g.strokeRect(x0 + 0.75, 0.75, w - 1.5, height - 1.5);
        g.restore();
        g.setFill(p.text());
        g.setFont(javafx.scene.text.Font.font("System", 10));
        g.setTextBaseline(javafx.geometry.VPos.CENTER);
        g.fillText("overview", 6, height / 2);
    }

    static Viewport wholeViewport(TimelineModel model, AxisMode mode, double plotW) {
        Viewport v = new Viewport();
        v.setWidth(plotW);
        double[] d = AxisMapping.domain(model, mode);
        v.setDomain(d[0], d[1]);
        return v;
    }
}
