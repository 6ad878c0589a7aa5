package dev.weft.app.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.vm.Settings;
import dev.weft.app.QueuedUiThread;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fuzz panel's model without a toolkit: the config checked as typed, the options, a real sweep of
 * examples/fuzz/sample.json with its progress and result, and the reproducer handed to the main window.
 */
class FuzzViewModelTest {

    private final QueuedUiThread ui = new QueuedUiThread();
    private final List<Path> opened = new ArrayList<>();
    private final FuzzViewModel model = new FuzzViewModel(new Settings(null), ui::post, opened::add);

    private void drainUntil(BooleanSupplier done) throws InterruptedException {
        ui.runUntil(done, Duration.ofSeconds(120), () -> model.progressText().get());
    }

    private static Path sample() {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(root.resolve("examples/fuzz/sample.json"))) root = root.getParent();
        return root.resolve("examples/fuzz/sample.json");
    }

    @Test
    void theConfigAndTheOptionsAreCheckedAsTyped(@TempDir Path dir) {
        assertTrue(model.configError().get().startsWith("✗ the config is empty"), model.configError().get());
        assertFalse(model.canStart().get());
        model.load(sample());
        assertEquals("", model.configError().get());
        assertNotNull(model.config().get());
        model.setOptions("0:40", "2", dir.resolve("out"));
        assertTrue(model.canStart().get());
        model.seeds.set("forty");
        assertEquals("✗ seeds \"forty\": expected START:COUNT, e.g. 0:1000", model.optionsError().get());
        assertFalse(model.canStart().get());
        model.seeds.set("0:40");
        model.configText.set("{\"workload\": ");
        assertTrue(model.configError().get().startsWith("✗ "), model.configError().get());
        assertFalse(model.canStart().get());
    }

    @Test
    void aSweepReportsProgressThenItsResultAndOpensTheReproducer(@TempDir Path dir) throws Exception {
        model.load(sample());
        model.setOptions("0:40", "2", dir.resolve("out"));
        model.start();
        assertTrue(model.running().get());
        assertFalse(model.canStart().get(), "one run at a time");
        drainUntil(() -> !model.running().get());
        FuzzSession.Result r = model.result().get();
        assertNotNull(r, model.progressText().get());
        assertEquals(40, r.tested());
        assertEquals(1, r.findings().size(), "one distinct violation: " + r.findings());
        assertTrue(model.progressText().get().startsWith("done: 40 seeds swept (0 to 39)"), model.progressText().get());
        assertEquals(1.0, model.progress().get());
        assertEquals(FuzzViewModel.seedList(r.failingSeeds(), Integer.MAX_VALUE), FuzzViewModel.failingSeedsText(r));
        model.openReproducer(r.findings().get(0));
        assertEquals(List.of(r.findings().get(0).reproducer()), opened);
        assertTrue(model.canStart().get(), "another run can start");
    }
}
