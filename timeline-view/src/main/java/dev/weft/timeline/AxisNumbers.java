package dev.weft.timeline;

/** The timeline's axis numbers for the protocol views, so that every axis in the workbench steps and reads alike. */
public final class AxisNumbers {

    private AxisNumbers() { }

    /** 1, 2 or 5 times a power of ten, at least the given value. */
    public static double niceStep(double atLeast) {
        return TimelineRenderer.niceStep(atLeast);
    }

    /** A tick label: the count, shortened to "k" for round thousands from a million on. */
    public static String formatCount(double v) {
        return TimelineRenderer.formatCount(v);
    }
}
