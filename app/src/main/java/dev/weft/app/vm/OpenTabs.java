package dev.weft.app.vm;

import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The window's tabs: every recording opened (each document stays open until its tab is closed) and every
 * comparison. The selected tab's document is the workbench's current document, so the toolbar, menus and keys act
 * on it; a comparison tab leaves the current document as it was.
 */
public final class OpenTabs {

    /** One tab: a recording or a comparison of two. */
    public sealed interface Tab permits DocumentTab, CompareTab {
        String title();
    }

    public record DocumentTab(DocumentViewModel document) implements Tab {
        public String title() { return document.path().getFileName().toString(); }
    }

    public record CompareTab(CompareViewModel compare) implements Tab {
        public String title() { return compare.title(); }
    }

    private final WorkbenchViewModel workbench;
    private final ObservableList<Tab> tabs = FXCollections.observableArrayList();
    private final ObjectProperty<Tab> selected = new SimpleObjectProperty<>(this, "selected");

    public OpenTabs(WorkbenchViewModel workbench) {
        this.workbench = workbench;
        workbench.documentProperty().addListener((o, old, doc) -> {
            if (doc == null) return;
            Tab t = tabOf(doc);
            if (t == null) {
                t = new DocumentTab(doc);
                tabs.add(t);
            }
            selected.set(t);
        });
        workbench.onDocumentGrown(this::replace);
    }

    /** A followed recording grew: its tab shows the bigger document, without selecting it. False if no tab had it. */
    private boolean replace(DocumentViewModel old, DocumentViewModel grown) {
        Tab t = tabOf(old);
        if (t == null) return false;
        DocumentTab fresh = new DocumentTab(grown);
        tabs.set(tabs.indexOf(t), fresh);
        if (selected.get() == t) selected.set(fresh);
        return true;
    }

    public ObservableList<Tab> tabs() { return tabs; }
    public ObjectProperty<Tab> selectedProperty() { return selected; }

    /** Shows a tab; a recording's tab also makes its document the current one. */
    public void select(Tab t) {
        if (!tabs.contains(t)) return;
        selected.set(t);
        if (t instanceof DocumentTab d && workbench.document() != d.document()) {
            workbench.documentProperty().set(d.document());
        }
    }

    /**
     * Compares the current document with another recording: opens it in its own tab, then adds and selects the
     * comparison tab. whenDone (may be null) gets the comparison once it is computed.
     */
    public void compareWith(java.nio.file.Path other, java.util.function.Consumer<CompareViewModel> whenDone) {
        DocumentViewModel first = workbench.document();
        if (first == null) return;
        compare(first, other, whenDone);
    }

    /** As {@link #compareWith}, with {@code first} on side A whichever recording is on screen (a what-if's original). */
    public void compare(DocumentViewModel first, java.nio.file.Path other, java.util.function.Consumer<CompareViewModel> whenDone) {
        workbench.open(other, 0, second -> {
            CompareViewModel c = new CompareViewModel(first, second, workbench.runner());
            CompareTab t = new CompareTab(c);
            tabs.add(t);
            selected.set(t);
            c.start(() -> {
                if (whenDone != null) whenDone.accept(c);
            });
        });
    }

    /**
     * Closes a tab. A recording's document is closed once no tab shows it (comparisons of it close with it);
     * the neighbouring tab is shown.
     */
    public void close(Tab t) {
        int at = tabs.indexOf(t);
        if (at < 0) return;
        tabs.remove(at);
        if (t instanceof DocumentTab d) {
            tabs.removeIf(x -> x instanceof CompareTab c
                    && (c.compare().a() == d.document() || c.compare().b() == d.document()));
            d.document().close();
        }
        Tab next = tabs.isEmpty() ? null : tabs.get(Math.min(at, tabs.size() - 1));
        if (next == null) {
            selected.set(null);
            workbench.documentProperty().set(null);
        } else {
            select(next);
        }
    }

    private Tab tabOf(DocumentViewModel doc) {
        for (Tab t : tabs) {
            if (t instanceof DocumentTab d && d.document() == doc) return t;
        }
        return null;
    }
}
