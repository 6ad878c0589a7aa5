package dev.weft.app.vm;

import dev.weft.app.source.Progress;
import dev.weft.app.source.RecordingOpener;
import dev.weft.app.source.RecordingSource;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The window's state: which document is open, the background load (progress, cancel, error), recent files
 * and the theme. Opening never blocks the caller's thread: the source is opened by the runner's worker and
 * the document published on the UI thread.
 */
public final class WorkbenchViewModel {

    public enum Theme { LIGHT, DARK }

    private final RecordingOpener opener;
    private final TaskRunner runner;
    private final Settings settings;
    private final ObjectProperty<DocumentViewModel> document = new SimpleObjectProperty<>(this, "document");
    private final BooleanProperty loading = new SimpleBooleanProperty(this, "loading", false);
    private final DoubleProperty progress = new SimpleDoubleProperty(this, "progress", 0);
    private final StringProperty progressText = new SimpleStringProperty(this, "progressText", "");
    private final StringProperty error = new SimpleStringProperty(this, "error", "");
    private final ObservableList<Path> recentFiles = FXCollections.observableArrayList();
    private final ObjectProperty<dev.weft.timeline.TimelineModel> preview = new SimpleObjectProperty<>(this, "preview");
    private final ObjectProperty<Theme> theme = new SimpleObjectProperty<>(this, "theme", Theme.LIGHT);
    private AtomicBoolean currentCancel = new AtomicBoolean();
    private final ObjectProperty<FollowViewModel> follow = new SimpleObjectProperty<>(this, "follow");
    private final List<java.util.function.BiPredicate<DocumentViewModel, DocumentViewModel>> grownListeners = new ArrayList<>();

    /** See {@link #goToWhenLoaded(String)}; null when nothing was asked. UI thread only. */
    private String goToWhenLoaded;

    public WorkbenchViewModel(RecordingOpener opener, TaskRunner runner, Settings settings) {
        this.opener = opener;
        this.runner = runner;
        this.settings = settings;
        recentFiles.setAll(settings.recentFiles());
        theme.set("dark".equals(settings.get("theme", "light")) ? Theme.DARK : Theme.LIGHT);
        theme.addListener((o, a, b) -> {
            settings.put("theme", b.name().toLowerCase(Locale.ROOT));
            settings.save();
        });
    }

    public ObjectProperty<DocumentViewModel> documentProperty() { return document; }
    public DocumentViewModel document() { return document.get(); }
    public BooleanProperty loadingProperty() { return loading; }
    public DoubleProperty progressProperty() { return progress; }
    public StringProperty progressTextProperty() { return progressText; }
    public StringProperty errorProperty() { return error; }
    public ObservableList<Path> recentFiles() { return recentFiles; }
    /** The partial timeline of the file being loaded (null when none). */
    public ObjectProperty<dev.weft.timeline.TimelineModel> previewProperty() { return preview; }
    public ObjectProperty<Theme> themeProperty() { return theme; }
    /** The recording being followed while it is written (null when none). */
    public ObjectProperty<FollowViewModel> followProperty() { return follow; }
    public Settings settings() { return settings; }
    public TaskRunner runner() { return runner; }

    public void toggleTheme() {
        theme.set(theme.get() == Theme.LIGHT ? Theme.DARK : Theme.LIGHT);
    }

    /**
     * Opens a file in the background at its first violation (else op 0); see {@link #open(Path, Integer, java.util.function.Consumer)}.
     */
    /**
     * An op (as typed into "go to") asked for while a file loads: the document goes there as soon as it opens,
     * instead of to its top finding. False when nothing is loading (then it is the open document's business).
     */
    public boolean goToWhenLoaded(String text) {
        if (!loading.get()) return false;
        goToWhenLoaded = text;
        return true;
    }

    public void open(Path file, java.util.function.Consumer<DocumentViewModel> onOpened) {
        open(file, null, onOpened);
    }

    /**
     * Opens a file in the background at untilOp (or, when null, at its first violation, else op 0).
     * onReady (may be null) runs on the UI thread once the document is shown and its checks are done.
     */
    public void open(Path file, Integer untilOp, java.util.function.Consumer<DocumentViewModel> onReady) {
        currentCancel.set(true);
        goToWhenLoaded = null;   // an op typed for the load this one supersedes
        AtomicBoolean cancel = new AtomicBoolean();
        currentCancel = cancel;
        loading.set(true);
        progress.set(0);
        progressText.set("opening " + file.getFileName());
        error.set("");
        Progress p = new Progress() {
            private long lastPublished;

            private String lastPhase = "";

            @Override public void update(double fraction, String message) {
                // At most ~10 updates a second reach the UI thread, however often the loader reports; a new
                // phase ("checks" after "reading · …") always does, so the bar never sits on a stale name.
                long now = System.nanoTime();
                String phase = message.contains(" — ") ? message.substring(0, message.indexOf(" — ")) : message;
                if (fraction < 1 && now - lastPublished < 100_000_000L && phase.equals(lastPhase)) return;
                lastPublished = now;
                lastPhase = phase;
                runner.ui(() -> {
                    if (cancel.get()) return;
                    progress.set(fraction);
                    progressText.set(message);
                });
            }
            @Override public boolean cancelled() { return cancel.get(); }
            @Override public void preview(dev.weft.timeline.TimelineModel partial) {
                runner.ui(() -> {
                    if (!cancel.get()) preview.set(partial);
                });
            }
        };
        runner.background(() -> {
            RecordingSource src;
            try {
                src = opener.open(file, p);
            } catch (InterruptedException e) {
                runner.ui(() -> {
                    if (cancel == currentCancel) {
                        preview.set(null);
                        loading.set(false);
                        progressText.set("cancelled");
                    }
                });
                return;
            } catch (RecordingOpener.OpenException e) {
                runner.ui(() -> {
                    preview.set(null);
                    loading.set(false);
                    error.set(e.getMessage());
                });
                return;
            } catch (RuntimeException e) {
                runner.ui(() -> {
                    loading.set(false);
                    error.set(file + ": cannot open: " + e);
                });
                return;
            }
            RecordingSource opened = src;
            runner.ui(() -> {
                if (cancel.get()) {
                    opened.close();
                    return;
                }
                preview.set(null);
                DocumentViewModel doc = new DocumentViewModel(opened, runner);
                document.set(doc);
                // The document replaced stays open: it keeps its tab (OpenTabs closes it with the tab).
                loading.set(false);
                progress.set(1);
                progressText.set("");
                remember(file);
                String typedWhileLoading = goToWhenLoaded;
                goToWhenLoaded = null;
                if (untilOp != null) doc.goTo(untilOp);
                else if (typedWhileLoading != null) doc.goTo(typedWhileLoading);
                doc.searchIndex().start();   // a search answers from it in well under a second once built
                // the checks open at the top finding only when nobody asked for an op
                doc.runChecks(untilOp == null && typedWhileLoading == null, () -> {
                    if (onReady != null) onReady.accept(doc);
                });
            });
        });
    }

    /**
     * Follows a recording that is still being written: its document grows as records arrive (see
     * {@link FollowViewModel}). A recording followed before stops being followed; its document stays.
     */
    public FollowViewModel follow(Path file) {
        FollowViewModel before = follow.get();
        if (before != null) before.stop();
        error.set("");
        FollowViewModel f = new FollowViewModel(this, file, FollowViewModel.POLL_MILLIS, FollowViewModel.PUBLISH_MILLIS);
        follow.set(f);
        f.start();
        return f;
    }

    /** Called when a document is replaced by a grown one: (old, grown) → whether the listener showed old. */
    void onDocumentGrown(java.util.function.BiPredicate<DocumentViewModel, DocumentViewModel> listener) {
        grownListeners.add(listener);
    }

    /**
     * Shows {@code grown} wherever {@code old} was shown (its tab; the current document if old was current), or as a
     * new document when old is null. False when old is no longer shown anywhere (its tab was closed).
     */
    boolean showGrown(DocumentViewModel old, DocumentViewModel grown) {
        if (old == null) {
            document.set(grown);
            remember(grown.path());
            return true;
        }
        boolean shown = document.get() == old;
        for (var l : grownListeners) shown |= l.test(old, grown);
        if (document.get() == old) document.set(grown);
        return shown;
    }

    /**
     * Where File ▸ Open starts: the open recording's folder, else the most recent file's, else null (the
     * platform's default). Folders that no longer exist are skipped.
     */
    public Path openDialogDirectory() {
        List<Path> candidates = new ArrayList<>();
        DocumentViewModel d = document.get();
        if (d != null) candidates.add(d.path());
        candidates.addAll(recentFiles);
        for (Path p : candidates) {
            Path dir = p.toAbsolutePath().getParent();
            if (dir != null && java.nio.file.Files.isDirectory(dir)) return dir;
        }
        return null;
    }

    /** Cancels the load in progress (the document shown before stays). */
    public void cancelLoad() {
        currentCancel.set(true);
        preview.set(null);
        loading.set(false);
        progressText.set("cancelled");
    }

    private void remember(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        List<Path> list = new ArrayList<>(recentFiles);
        list.remove(abs);
        list.add(0, abs);
        while (list.size() > Settings.MAX_RECENT) list.remove(list.size() - 1);
        recentFiles.setAll(list);
        settings.setRecentFiles(list);
        settings.save();
    }
}
