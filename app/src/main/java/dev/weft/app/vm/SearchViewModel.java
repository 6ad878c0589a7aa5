package dev.weft.app.vm;

import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

import java.util.Locale;

/**
 * Search with next / previous: the first shown (not filtered) op after / before the cursor whose event
 * line contains the query, case-insensitive, wrapping around once. Scans in the background.
 */
public final class SearchViewModel {

    private final DocumentViewModel doc;
    private final FilterViewModel filter;
    private final TaskRunner runner;
    private final StringProperty query = new SimpleStringProperty(this, "query", "");

    public SearchViewModel(DocumentViewModel doc, FilterViewModel filter, TaskRunner runner) {
        this.doc = doc;
        this.filter = filter;
        this.runner = runner;
    }

    public StringProperty queryProperty() { return query; }

    public void next() { search(+1); }
    public void previous() { search(-1); }

    private void search(int dir) {
        String q = query.get() == null ? "" : query.get().trim().toLowerCase(Locale.ROOT);
        if (q.isEmpty()) return;
        OpList rows = filter.visibleOps();
        int start = doc.cursor();
        runner.background(() -> {
            int n = rows.size();
            if (n == 0) {
                runner.ui(() -> doc.messageProperty().set("nothing to search: every event is filtered away"));
                return;
            }
            int r = rows.rowOf(start);
            int from = r >= 0 ? r + dir : (dir > 0 ? -r - 1 : -r - 2);
            for (int i = 0; i < n; i++) {
                int row = Math.floorMod(from + dir * i, n);
                int op = rows.op(row);
                if (doc.source().eventLine(op).toLowerCase(Locale.ROOT).contains(q)) {
                    runner.ui(() -> doc.goTo(op));
                    return;
                }
            }
            runner.ui(() -> doc.messageProperty().set("no event matches \"" + query.get().trim() + "\""));
        });
    }
}
