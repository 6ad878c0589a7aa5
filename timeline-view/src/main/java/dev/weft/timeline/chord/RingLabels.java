package dev.weft.timeline.chord;

import java.util.ArrayList;
import java.util.List;

/**
 * Places the Chord ring's node labels so that no two overlap: each label starts just outside its node, on the node's
 * angle, anchored on the side facing away from the ring; a label that would touch one already placed (in angle
 * order) moves outwards along its angle until it is clear, and is then joined to its node by a leader line.
 * Pure geometry (the caller measures the texts), so the layout is tested without a screen.
 */
final class RingLabels {

    /** A label's box (top-left, size) and the point on the ring it belongs to. */
    record Placed(int id, double x, double y, double w, double h, double nodeX, double nodeY, boolean moved) {
        boolean overlaps(Placed o, double pad) {
            return x < o.x + o.w + pad && o.x < x + w + pad && y < o.y + o.h + pad && o.y < y + h + pad;
        }
    }

    /** Gap between a node's dot and its label. */
    static final double GAP = 22;
    private static final double PAD = 2;
    private static final int MAX_STEPS = 60;

    private RingLabels() { }

    /**
     * ids in angle order with their angles (radians) and label widths; height is one text line. Returns the boxes,
     * in the same order.
     */
    static List<Placed> layout(int[] ids, double[] angles, double[] widths, double height, double cx, double cy, double r) {
        List<Placed> out = new ArrayList<>(ids.length);
        for (int i = 0; i < ids.length; i++) {
            double cos = Math.cos(angles[i]), sin = Math.sin(angles[i]);
            double nodeX = cx + r * cos, nodeY = cy + r * sin;
            Placed p = null;
            for (int step = 0; step < MAX_STEPS; step++) {
                double lr = r + GAP + step * height * 0.6;
                p = box(ids[i], cx + lr * cos, cy + lr * sin, cos, sin, widths[i], height, nodeX, nodeY, step > 0);
                if (clear(p, out)) break;
            }
            out.add(p);
        }
        return out;
    }

    private static boolean clear(Placed p, List<Placed> placed) {
        for (Placed o : placed) if (p.overlaps(o, PAD)) return false;
        return true;
    }

    /** The box whose edge facing the ring touches (px, py): to the right of points on the right, above points on top. */
    private static Placed box(int id, double px, double py, double cos, double sin, double w, double h,
                              double nodeX, double nodeY, boolean moved) {
        double x = cos > 0.3 ? px : cos < -0.3 ? px - w : px - w / 2;
        double y = Math.abs(cos) > 0.3 ? py - h / 2 : sin < 0 ? py - h : py;
        return new Placed(id, x, y, w, h, nodeX, nodeY, moved);
    }
}
