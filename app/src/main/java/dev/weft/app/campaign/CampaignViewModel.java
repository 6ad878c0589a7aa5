package dev.weft.app.campaign;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * What the campaign results view shows and does, without the toolkit: the folder, a one-paragraph summary, the
 * cells (fix levels) with their verdict counts, and the runs worth a look filtered by verdict and by the selected
 * cell; opening a run opens its recording on the finding its checker named. The folder is read on a thread of its
 * own and the result handed to {@code ui} (Platform::runLater in the workbench).
 */
public final class CampaignViewModel {

    /** The verdicts the filter offers, "all" first. */
    public static final List<String> VERDICTS = List.of("all", "VIOLATION", "DISCARD", "ERROR", "DEADLOCK", "OK");

    public final StringProperty folder = new SimpleStringProperty(this, "folder", "");
    /** Shows only runs of this verdict ("all": every one). */
    public final StringProperty verdictFilter = new SimpleStringProperty(this, "verdictFilter", "all");
    /** Shows only runs of this cell (null: every cell). */
    public final ObjectProperty<CampaignResults.Cell> selectedCell = new SimpleObjectProperty<>(this, "selectedCell");

    private final ReadOnlyObjectWrapper<CampaignResults> results = new ReadOnlyObjectWrapper<>();
    private final ReadOnlyStringWrapper summary = new ReadOnlyStringWrapper(
            "Open a campaign output folder (the --out of weft campaign).");
    private final ObservableList<CampaignResults.Cell> cells = FXCollections.observableArrayList();
    private final ObservableList<CampaignResults.Hit> hits = FXCollections.observableArrayList();

    private final Consumer<Runnable> ui;
    private final BiConsumer<Path, String> openAtFinding;

    /** openAtFinding: opens a recording on the finding of the named invariant (e.g. "AtLeastOneRing"). */
    public CampaignViewModel(Consumer<Runnable> ui, BiConsumer<Path, String> openAtFinding) {
        this.ui = ui;
        this.openAtFinding = openAtFinding;
        verdictFilter.addListener(o -> applyFilter());
        selectedCell.addListener(o -> applyFilter());
    }

    /** Reads {@code dir} in the background and shows it (or the reason it cannot). */
    public void open(Path dir) {
        folder.set(dir.toAbsolutePath().toString());
        summary.set("reading " + dir + " …");
        Thread t = new Thread(() -> {
            try {
                CampaignResults r = CampaignResults.read(dir.toAbsolutePath());
                ui.accept(() -> show(r));
            } catch (CampaignResults.NotACampaign e) {
                ui.accept(() -> {
                    selectedCell.set(null);
                    results.set(null);
                    cells.clear();
                    hits.clear();
                    summary.set("✗ " + e.getMessage());
                });
            }
        }, "weft-campaign-read");
        t.setDaemon(true);
        t.start();
    }

    /** Reads the folder typed in the form again (nothing when it is blank). */
    public void reload() {
        if (!folder.get().isBlank()) open(Path.of(folder.get().strip()));
    }

    private void show(CampaignResults r) {
        selectedCell.set(null);
        results.set(r);
        summary.set(summaryOf(r));
        cells.setAll(r.cells());
        applyFilter();
    }

    static String summaryOf(CampaignResults r) {
        return String.format(Locale.ROOT, "%s: `%s` on %d nodes, net `%s`, checker `%s`, seeds %s to %s — %s"
                        + " (%d of %d runs), %d distinct violation class(es)",
                r.folder().getFileName(), r.target(), r.nodes(), r.net(), r.checker(),
                Long.toUnsignedString(r.seedStart()), Long.toUnsignedString(r.seedStart() + r.seedCount() - 1),
                r.complete() ? "complete" : "PARTIAL", r.done(), r.planned(), r.classes());
    }

    private void applyFilter() {
        CampaignResults r = results.get();
        if (r == null) {
            hits.clear();
            return;
        }
        String v = verdictFilter.get();
        CampaignResults.Cell cell = selectedCell.get();
        hits.setAll(r.hits().stream()
                .filter(h -> v == null || v.equals("all") || h.verdict().equals(v))
                .filter(h -> cell == null || h.cell().equals(cell.name()))
                .toList());
    }

    /** Opens a run's kept recording on its finding (nothing for a run whose recording was not kept). */
    public void openRun(CampaignResults.Hit h) {
        if (h != null && h.recording() != null) openAtFinding.accept(h.recording(), h.invariant());
    }

    /** The lines the details box shows for a selected run. */
    public static String details(CampaignResults.Hit h) {
        return h.cell() + " seed " + Long.toUnsignedString(h.seed()) + ": " + h.verdict()
                + (h.violationClass().isEmpty() ? "" : "\nclass: " + h.violationClass())
                + (h.identity().isEmpty() ? "" : "\nchecker: " + h.identity())
                + "\nrecording: " + (h.recording() == null ? "not kept" : h.recording().toString());
    }

    public ReadOnlyObjectProperty<CampaignResults> results() { return results.getReadOnlyProperty(); }
    public ReadOnlyStringProperty summary() { return summary.getReadOnlyProperty(); }
    /** Every cell of the campaign open, in the report's order. */
    public ObservableList<CampaignResults.Cell> cells() { return cells; }
    /** The runs the filters let through (the view sorts them). */
    public ObservableList<CampaignResults.Hit> hits() { return hits; }
}
