package dev.weft.app.vm;

import dev.weft.log.LogRecord;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Search with next / previous: every op whose event line or payload (hex or decoded text, so "RPT" finds the
 * state reports) contains the query, case-insensitive. The matches are found once per query in the background
 * (in blocks, one read each), counted ("3 of 12 matches") and highlighted on the timeline; next / previous go
 * to the first shown (not filtered) match after / before the cursor, wrapping around once.
 */
public final class SearchViewModel {

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
            if (normalized().isEmpty()) {
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
        status.set("searching…");
        int n = doc.size();
        runner.background(() -> {
            int[] found = new int[64];
            int count = 0;
            long lastShown = System.nanoTime();
            for (int from = 0; from < n; from += BLOCK) {
                if (gen != generation) return;
                if (System.nanoTime() - lastShown > 100_000_000L) {   // progress, at most ten times a second
                    lastShown = System.nanoTime();
                    String progress = "searching… " + (int) (100L * from / n) + " % (" + count + " found so far)";
                    runner.ui(() -> {
                        if (gen == generation) status.set(progress);
                    });
                }
                int to = Math.min(n, from + BLOCK);
                String[] lines = doc.source().eventLines(from, to);
                List<LogRecord> recs = doc.source().records(from, to);
                for (int i = 0; i < lines.length; i++) {
                    if (!EventText.matches(lines[i], recs.get(i), q)) continue;
                    if (count == found.length) found = Arrays.copyOf(found, count * 2);
                    found[count++] = from + i;
                }
            }
            int[] result = Arrays.copyOf(found, count);
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
