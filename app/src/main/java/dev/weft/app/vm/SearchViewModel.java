package dev.weft.app.vm;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.util.Arrays;
import java.util.Locale;

/**
 * Search with next / previous: every op whose event line or payload (hex or decoded text, so "RPT" finds the
 * state reports) contains the query, case-insensitive. The matches are found once per query in the background
 * from the document's {@link SearchIndex} (built once; "indexing for search… 40 %" until then), counted ("3 of 12
 * matches") and highlighted on the timeline; next / previous go
 * to the first shown (not filtered) match after / before the cursor, wrapping around once.
 */
public final class SearchViewModel {

    /** Ops read at a time by the scans over records (the filters' payload text, the range's export). */
    static final int BLOCK = 4096;

    private final DocumentViewModel doc;
    private final FilterViewModel filter;
    private final TaskRunner runner;
    private final StringProperty query = new SimpleStringProperty(this, "query", "");
    private final ObjectProperty<int[]> matches = new SimpleObjectProperty<>(this, "matches", new int[0]);
    private final ReadOnlyStringWrapper status = new ReadOnlyStringWrapper(this, "status", "");
    private String scannedFor = "";
    private int generation;

    public SearchViewModel(DocumentViewModel doc, FilterViewModel filter, TaskRunner runner) {
        this.doc = doc;
        this.filter = filter;
        this.runner = runner;
        doc.cursorProperty().addListener(o -> updateStatus());
        query.addListener(o -> {
            // A different query (even while typing it) drops the last answer: the status line never shows the
            // count of one query beside another.
            if (!normalized().equals(scannedFor)) {
                generation++;
                scannedFor = "";
                matches.set(new int[0]);
                status.set("");
            }
        });
    }

    public StringProperty queryProperty() { return query; }
    /** Ops that match the query, ascending (empty until a search ran). */
    public ObjectProperty<int[]> matchesProperty() { return matches; }
    /** "3 of 12 matches", "no match for …", "searching…". */
    public ReadOnlyStringProperty statusProperty() { return status.getReadOnlyProperty(); }

    public void next() { search(+1); }
    public void previous() { search(-1); }

    private String normalized() {
        return query.get() == null ? "" : query.get().trim().toLowerCase(Locale.ROOT);
    }

    private void search(int dir) {
        String q = normalized();
        if (q.isEmpty()) return;
        if (q.equals(scannedFor)) {
            go(dir);
            return;
        }
        int gen = ++generation;
        // The last query's answer goes at once: the status never shows it beside the new query.
        scannedFor = "";
        matches.set(new int[0]);
        SearchIndexLoader loader = doc.searchIndex();
        loader.cancelWaiting();
        if (loader.index() == null) {
            showIndexing(gen, loader);
        } else {
            status.set("searching…");
        }
        loader.whenReady(index -> scan(gen, index, q, dir));
    }

    /** "indexing for search… 40 %" while the index is built, then the scan takes over the status line. */
    private void showIndexing(int gen, SearchIndexLoader loader) {
        status.set("indexing for search… " + percent(loader.progressProperty().get()));
        javafx.beans.InvalidationListener[] follow = new javafx.beans.InvalidationListener[1];
        follow[0] = o -> {
            if (gen != generation || loader.index() != null || loader.failure() != null) {
                loader.progressProperty().removeListener(follow[0]);
                if (gen == generation && loader.failure() != null) status.set("search unavailable: " + loader.failure());
                return;
            }
            status.set("indexing for search… " + percent(loader.progressProperty().get()));
        };
        loader.progressProperty().addListener(follow[0]);
    }

    private static String percent(double f) {
        return (int) (Math.max(0, f) * 100) + " %";
    }

    private void scan(int gen, SearchIndex index, String q, int dir) {
        if (gen != generation) return;
        status.set("searching…");
        runner.background(() -> {
            int[] shownPercent = {0};
            int[] result = index.find(q, f -> {
                int pct = (int) (f * 100);
                if (pct >= shownPercent[0] + 10) {   // a few steps: the scan takes well under a second
                    shownPercent[0] = pct;
                    runner.ui(() -> {
                        if (gen == generation) status.set("searching… " + pct + " %");
                    });
                }
            }, () -> gen != generation);
            if (result == null) return;
            runner.ui(() -> {
                if (gen != generation) return;
                scannedFor = q;
                matches.set(result);
                go(dir);
            });
        });
    }

    private void go(int dir) {
        int[] m = matches.get();
        OpList rows = filter.visibleOps();
        int[] shown = Arrays.stream(m).filter(op -> rows.rowOf(op) >= 0).toArray();
        if (shown.length == 0) {
            doc.messageProperty().set(m.length == 0 ? "no event matches \"" + query.get().trim() + "\""
                    : "all " + m.length + " matches are hidden by the filters");
            updateStatus();
            return;
        }
        int cur = doc.cursor();
        int i = Arrays.binarySearch(shown, cur);
        int target;
        if (dir > 0) target = i >= 0 ? i + 1 : -i - 1;
        else target = i >= 0 ? i - 1 : -i - 2;
        target = Math.floorMod(target, shown.length);
        doc.goTo(shown[target]);
        updateStatus();
    }

    private void updateStatus() {
        int[] m = matches.get();
        if (scannedFor.isEmpty()) return;
        if (m.length == 0) {
            status.set("no match");
            return;
        }
        int i = Arrays.binarySearch(m, doc.cursor());
        status.set(i >= 0 ? (i + 1) + " of " + m.length + " matches" : m.length + " matches");
    }
}
