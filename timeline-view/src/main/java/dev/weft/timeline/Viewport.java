package dev.weft.timeline;

/**
 * The visible window of the x axis, in axis units (ops, or ns of virtual time), mapped onto a width in
 * pixels. Pure arithmetic, no toolkit: zoom keeps the value under the pointer fixed, pan moves by pixels,
 * and every change is clamped to the domain so the view never drifts off the recording.
 *
 * <p>In OP mode event i occupies [i, i + 1) and is drawn at its centre; in VIRTUAL_TIME mode an event is
 * drawn at its vt.
 */
public final class Viewport {

    /** Never zoom in further than this many pixels per axis unit... */
    static final double MAX_PIXELS_PER_UNIT = 60;
    /** ...nor to a window narrower than this many units (virtual time is in ns). */
    static final double MIN_SPAN = 4;

    private double domainStart;
    private double domainEnd = 1;
    private double start;
    private double span = 1;
    private double width = 1;

    public double domainStart() { return domainStart; }
    public double domainEnd() { return domainEnd; }
    public double start() { return start; }
    public double end() { return start + span; }
    public double span() { return span; }
    public double width() { return width; }

    public double pixelsPerUnit() {
        return width / span;
    }

    /** Sets the domain and shows all of it. */
    public void setDomain(double from, double to) {
        domainStart = from;
        domainEnd = Math.max(to, from + 1e-9);
        fitAll();
    }

    public void setWidth(double pixels) {
        width = Math.max(1, pixels);
        clamp();
    }

    public void fitAll() {
        start = domainStart;
        span = domainEnd - domainStart;
    }

    /** Shows [from, to) (clamped). */
    public void show(double from, double to) {
        span = Math.max(to - from, 1e-9);
        start = from;
        clamp();
    }

    public double xOf(double value) {
        return (value - start) * width / span;
    }

    public double valueAt(double x) {
        return start + x * span / width;
    }

    /** Zooms by factor (> 1 zooms in) keeping the value under pixel x where it is. */
    public void zoomAt(double x, double factor) {
        double anchor = valueAt(x);
        double newSpan = span / factor;
        span = newSpan;
        clamp();
        start = anchor - x * span / width;
        clamp();
    }

    /** Moves the content by dx pixels (positive dx reveals what is on the left). */
    public void panPixels(double dx) {
        start -= dx * span / width;
        clamp();
    }

    /** Scrolls the least amount so that value lies inside the window, with a margin of 10% of the width. */
    public void reveal(double value) {
        double margin = span * 0.1;
        if (value < start + margin) start = value - margin;
        else if (value > start + span - margin) start = value - span + margin;
        clamp();
    }

    /** Centres the window on value without changing the zoom. */
    public void centerOn(double value) {
        start = value - span / 2;
        clamp();
    }

    private void clamp() {
        double domain = domainEnd - domainStart;
        double minSpan = Math.min(domain, Math.max(MIN_SPAN, width / MAX_PIXELS_PER_UNIT));
        if (span < minSpan) span = minSpan;
        if (span > domain) span = domain;
        if (start < domainStart) start = domainStart;
        if (start + span > domainEnd) start = domainEnd - span;
    }
}
