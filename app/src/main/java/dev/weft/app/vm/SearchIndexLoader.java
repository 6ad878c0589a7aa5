package dev.weft.app.vm;

import dev.weft.app.source.RecordingSource;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A document's {@link SearchIndex}, built once on its own thread (started when the recording has loaded, or by the
 * first search) so the worker's short reads and the UI go on meanwhile. Everything but the build is for the UI thread.
 */
public final class SearchIndexLoader {

    private final RecordingSource source;
    private final TaskRunner runner;
    /** -1 before the build starts, then 0..1; 1 once the index is in hand. */
    private final ReadOnlyDoubleWrapper progress = new ReadOnlyDoubleWrapper(this, "progress", -1);
    private final List<Consumer<SearchIndex>> waiting = new ArrayList<>();
    private SearchIndex index;
    private String failure;
    private volatile boolean closed;

    SearchIndexLoader(RecordingSource source, TaskRunner runner) {
        this.source = source;
        this.runner = runner;
    }

    public ReadOnlyDoubleProperty progressProperty() { return progress.getReadOnlyProperty(); }

    /** The index if built, else null. */
    public SearchIndex index() { return index; }

    /** Why the build failed (one line), or null. */
    public String failure() { return failure; }

    /** Starts the build unless it started already. */
    public void start() {
        if (progress.get() >= 0 || closed) return;
        progress.set(0);
        runner.aside(() -> {
            int[] shownPercent = {0};
            try {
                SearchIndex built = SearchIndex.build(source, f -> {
                    int pct = (int) (f * 100);
                    if (pct > shownPercent[0]) {   // at most a hundred updates, whatever the size
                        shownPercent[0] = pct;
                        runner.ui(() -> {
                            if (index == null) progress.set(Math.min(0.99, f));
                        });
                    }
                }, () -> closed);
                runner.ui(() -> arrived(built, null));
            } catch (SearchIndex.Cancelled e) {
                // The document was closed: nobody waits.
            } catch (RuntimeException e) {
                runner.ui(() -> arrived(null, e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        });
    }

    /** Calls then with the index as soon as it is built (now if it is), starting the build if needed. */
    public void whenReady(Consumer<SearchIndex> then) {
        if (index != null) {
            then.accept(index);
            return;
        }
        waiting.add(then);
        start();
    }

    /** Forgets who waits (a newer query replaced theirs). */
    public void cancelWaiting() { waiting.clear(); }

    /** Stops a build under way (the document is closing). */
    public void close() {
        closed = true;
        waiting.clear();
    }

    private void arrived(SearchIndex built, String failed) {
        index = built;
        failure = failed;
        progress.set(1);
        if (built == null) {
            waiting.clear();
            return;
        }
        List<Consumer<SearchIndex>> now = new ArrayList<>(waiting);
        waiting.clear();
        for (Consumer<SearchIndex> c : now) c.accept(built);
    }
}
