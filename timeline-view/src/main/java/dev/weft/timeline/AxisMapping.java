package dev.weft.timeline;

/**
 * Where events sit on the x axis for one model, axis mode and viewport, and the reverse: which ops a pixel
 * range covers, and which event is nearest a point (hit-testing against the model, not against nodes).
 * Pure arithmetic, tested without a toolkit.
 */
public final class AxisMapping {

    private final TimelineModel model;
    private final AxisMode mode;
    private final Viewport viewport;

    public AxisMapping(TimelineModel model, AxisMode mode, Viewport viewport) {
        this.model = model;
        this.mode = mode;
        this.viewport = viewport;
    }

    /** The axis domain for a model: every op, or the vt span padded by 2% so edge marks stay visible. */
    public static double[] domain(TimelineModel model, AxisMode mode) {
        if (mode == AxisMode.OP) return new double[] {0, Math.max(1, model.size())};
        double lo = unsigned(model.vtMin());
        double hi = unsigned(model.vtMax());
        double pad = Math.max(1, (hi - lo) * 0.02);
        return new double[] {lo - pad, hi + pad};
    }

    public static double unsigned(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
    }

    /** Axis value at which the event is drawn. */
    public double valueOf(int op) {
        return mode == AxisMode.OP ? op + 0.5 : unsigned(model.vt(op));
    }

    public double xOf(int op) {
        return viewport.xOf(valueOf(op));
    }

    /** The first op drawn at an axis value >= v (size() if none). */
    public int firstOpNotBefore(double v) {
        int n = model.size();
        if (mode == AxisMode.OP) {
            double c = Math.ceil(v - 0.5);
            if (c <= 0) return 0;
            return c >= n ? n : (int) c;
        }
        if (v <= 0) return 0;
        if (v >= 0x1p64) return n;
        double c = Math.ceil(v);
        long asU64 = c >= 0x1p63 ? (long) (c - 0x1p63) ^ Long.MIN_VALUE : (long) c;
        return model.firstOpNotBeforeVt(asU64);
    }

    /** Ops drawn in the pixel range [x0, x1): {from, to} with to exclusive. */
    public int[] opsInPixels(double x0, double x1) {
        return new int[] {firstOpNotBefore(viewport.valueAt(x0)), firstOpNotBefore(viewport.valueAt(x1))};
    }

    /** Ops drawn inside the viewport: {from, to}. */
    public int[] visibleOps() {
        return new int[] {firstOpNotBefore(viewport.start()), firstOpNotBefore(viewport.end())};
    }

    /**
     * The op the scrub cursor lands on at pixel x: in OP mode the op under the pointer; in VIRTUAL_TIME
     * mode the last op at or before that time. Clamped to [0, size - 1]; -1 for an empty model.
     */
    public int cursorOpAt(double x) {
        int n = model.size();
        if (n == 0) return -1;
        double v = viewport.valueAt(x);
        int op = mode == AxisMode.OP ? (int) Math.floor(v) : firstOpNotBefore(Math.floor(v) + 1) - 1;
        return Math.max(0, Math.min(n - 1, op));
    }

    /** Mark visibility filter used by hit-testing: lane and kind ordinal. */
    public interface MarkFilter {
        boolean visible(int lane, int kindOrdinal);
    }

    /** At most this many events are examined per hit test, so hovering a dense column stays cheap. */
    static final int HIT_SCAN_LIMIT = 20_000;

    /**
     * The visible event in the given lane nearest pixel x within radius pixels, or -1. Scans outwards from
     * the pointer and stops in each direction once marks are farther than the best found.
     */
    public int nearestOp(int lane, double x, double radius, MarkFilter filter) {
        int n = model.size();
        if (n == 0) return -1;
        int centre = firstOpNotBefore(viewport.valueAt(x));
        int best = -1;
        double bestDist = radius;
        int scanned = 0;
        int left = centre - 1, right = centre;
        boolean goLeft = true, goRight = true;
        while ((goLeft || goRight) && scanned < HIT_SCAN_LIMIT) {
            if (goRight) {
                if (right >= n) goRight = false;
                else {
                    double d = Math.abs(xOf(right) - x);
                    if (d > bestDist) goRight = false;
                    else {
                        if (model.lane(right) == lane && filter.visible(lane, model.kindOrdinal(right)) && d < bestDist) {
                            best = right;
                            bestDist = d;
                        }
                        right++;
                        scanned++;
                    }
                }
            }
            if (goLeft) {
                if (left < 0) goLeft = false;
                else {
                    double d = Math.abs(xOf(left) - x);
                    if (d > bestDist) goLeft = false;
                    else {
                        if (model.lane(left) == lane && filter.visible(lane, model.kindOrdinal(left)) && d <= bestDist) {
                            best = left;
                            bestDist = d;
                        }
                        left--;
                        scanned++;
                    }
                }
            }
        }
        return best;
    }
}
