package dev.weft.app.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.QueuedUiThread;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Shrink tool's view model without a toolkit or a process: a fake starter stands in for {@code weft shrink},
 * and the "UI thread" is this test's, draining what the view model hands over (as Platform.runLater would).
 */
class ShrinkViewModelTest {

    @TempDir
    Path dir;

    private final QueuedUiThread ui = new QueuedUiThread();
    private final List<Path> opened = new ArrayList<>();
    /** What the fake starter of {@link #modelOfAShrinkThatReportsToTheTest} was handed. */
    private final CompletableFuture<ShrinkSession.Listener> handedListener = new CompletableFuture<>();

    /** Runs what was handed to the UI thread until {@code done} holds (or fails after 10 s). */
    private void drainUntil(java.util.function.BooleanSupplier done) throws InterruptedException {
        ui.runUntil(done, Duration.ofSeconds(10));
    }

    private ShrinkViewModel model(ShrinkViewModel.Starter starter) throws IOException {
        ShrinkViewModel m = new ShrinkViewModel(ui::post, opened::add, starter);
        Path config = Files.writeString(dir.resolve("campaign.json"), "{}");
        m.fill(new ShrinkRequest(config.toString(), "3", "CHORD_FIX=0", "", dir.resolve("out").toString()));
        return m;
    }

    /** A model whose starter starts nothing and hands the test its listener, so the test plays weft shrink. */
    private ShrinkViewModel modelOfAShrinkThatReportsToTheTest() throws IOException {
        return model((r, l) -> {
            handedListener.complete(l);
            return null;
        });
    }

    @Test
    void theFormSaysWhatIsWrongFieldByFieldAndOnlyAValidOneCanStart() throws Exception {
        ShrinkViewModel m = model((r, l) -> null);
        assertTrue(m.canStart().get());
        assertTrue(m.commandLine().get().startsWith("weft shrink --config "), m.commandLine().get());
        m.seed.set("three");
        assertEquals("the seed is a number (decimal or 0x hex), e.g. 3", m.problems().get().get(ShrinkRequest.Field.SEED));
        assertFalse(m.canStart().get());
        assertEquals("", m.commandLine().get(), "no command for a form with problems");
        m.start();
        assertFalse(m.running().get(), "a form with problems starts nothing");
    }

    @Test
    void progressLinesAndTheEndReachTheViewAndTheMinimalRecordingOpens() throws Exception {
        ShrinkViewModel m = modelOfAShrinkThatReportsToTheTest();
        m.start();
        assertTrue(m.running().get());
        assertFalse(m.canStart().get(), "one shrink at a time");
        assertEquals(-1, m.progress().get(), "indeterminate until the first run reports");
        ShrinkSession.Listener listener = handedListener.get(10, TimeUnit.SECONDS);
        listener.line(true, "shrink: run 3, 3 deviation(s) of 12");
        listener.progress(3, 3, 12);
        drainUntil(() -> m.progress().get() > 0);
        assertEquals(0.75, m.progress().get());
        assertEquals("run 3: 3 deviation(s) of 12 left", m.state().get());
        assertEquals(List.of("shrink: run 3, 3 deviation(s) of 12"), m.lines());
        Path minimal = dir.resolve("out/minimal.weftlog");
        listener.finished(0, minimal, false);
        drainUntil(() -> !m.running().get());
        assertEquals("done: " + minimal + " (exit 0)", m.state().get());
        assertEquals(1.0, m.progress().get());
        assertEquals(List.of(minimal), opened);
        assertTrue(m.canStart().get());
    }

    @Test
    void aCancelBeforeTheProcessIsKnownEndsItAsSoonAsItIs() throws Exception {
        ShrinkViewModel m = modelOfAShrinkThatReportsToTheTest();
        m.start();
        m.cancel();
        assertTrue(m.cancelling().get());
        assertEquals("cancelling…", m.state().get());
        ShrinkSession.Listener listener = handedListener.get(10, TimeUnit.SECONDS);
        listener.finished(130, null, true);
        drainUntil(() -> !m.running().get());
        assertEquals("cancelled", m.state().get());
        assertFalse(m.cancelling().get());
        assertEquals(List.of(), opened);
        assertNull(m.session());
    }

    @Test
    void aShrinkThatCannotStartSaysWhy() throws Exception {
        ShrinkViewModel m = model((r, l) -> {
            throw new IOException("no java here");
        });
        m.start();
        drainUntil(() -> !m.running().get());
        assertEquals("✗ cannot start weft shrink: no java here", m.state().get());
        assertEquals(0, m.progress().get());
    }
}
