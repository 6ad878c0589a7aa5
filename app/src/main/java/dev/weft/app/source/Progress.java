package dev.weft.app.source;

/** Reports progress of a long task and lets it notice cancellation. */
public interface Progress {

    Progress NONE = new Progress() {
        @Override public void update(double fraction, String message) { }
        @Override public boolean cancelled() { return false; }
    };

    /** fraction in [0, 1], or negative when unknown. */
    void update(double fraction, String message);

    boolean cancelled();

    /** A partial timeline of what was read so far, to show while a large file is still loading. */
    default void preview(dev.weft.timeline.TimelineModel partial) { }

    /** Throws InterruptedException when cancelled (call it in loops every few thousand items). */
    default void checkCancelled() throws InterruptedException {
        if (cancelled()) throw new InterruptedException("cancelled");
    }
}
