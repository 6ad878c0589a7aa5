package dev.weft.app.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.QueuedUiThread;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The campaign results view's model without a toolkit: reading a folder, the summary, the filters, opening a run. */
class CampaignViewModelTest {

    private final QueuedUiThread ui = new QueuedUiThread();
    private final List<String> opened = new ArrayList<>();
    private final CampaignViewModel model = new CampaignViewModel(ui::post,
            (recording, invariant) -> opened.add(recording.getFileName() + " at " + invariant));

    private void drainUntil(BooleanSupplier done) throws InterruptedException {
        ui.runUntil(done, Duration.ofSeconds(20), () -> model.summary().get());
    }

    private static List<String> rows(List<CampaignResults.Hit> hits) {
        return hits.stream().map(h -> h.cell() + " s" + h.seed() + " " + h.verdict()).toList();
    }

    @Test
    void aFolderIsReadOffTheUiThreadAndFilteredByVerdictAndCell(@TempDir Path dir) throws Exception {
        Path folder = CampaignFixture.create(dir.resolve("chord-campaign"));
        model.open(folder);
        assertTrue(model.summary().get().startsWith("reading "), model.summary().get());
        drainUntil(() -> model.results().get() != null);
        assertTrue(model.summary().get().contains("complete (12 of 12 runs), 1 distinct violation class"),
                model.summary().get());
        assertEquals(2, model.cells().size());
        assertEquals(6, model.hits().size());

        model.verdictFilter.set("VIOLATION");
        assertEquals(List.of("CHORD_FIX=0 s1 VIOLATION", "CHORD_FIX=0 s3 VIOLATION", "CHORD_FIX=0 s5 VIOLATION"),
                rows(model.hits()));
        model.verdictFilter.set("all");
        model.selectedCell.set(model.cells().get(1));
        assertEquals(List.of("CHORD_FIX=1 s0 OK", "CHORD_FIX=1 s2 ERROR"), rows(model.hits()));

        model.reload(); // a resumed campaign rewrites its report: reading again starts from every cell
        drainUntil(() -> model.selectedCell.get() == null && model.hits().size() == 6);

        model.openRun(model.hits().get(0));
        model.openRun(model.hits().get(1)); // its recording was compacted away: nothing to open
        assertEquals(List.of("s1.weftlog at AtLeastOneRing"), opened);
        assertTrue(CampaignViewModel.details(model.hits().get(1)).endsWith("recording: not kept"));
    }

    @Test
    void aFolderThatIsNotACampaignSaysWhyAndShowsNothing(@TempDir Path dir) throws Exception {
        model.open(CampaignFixture.create(dir.resolve("c")));
        drainUntil(() -> model.results().get() != null);
        model.open(dir.resolve("empty").toFile().mkdir() ? dir.resolve("empty") : dir);
        drainUntil(() -> model.summary().get().startsWith("✗"));
        assertTrue(model.summary().get().contains("no report.json"), model.summary().get());
        assertNull(model.results().get());
        assertEquals(List.of(), model.cells());
        assertEquals(List.of(), model.hits());
    }
}
