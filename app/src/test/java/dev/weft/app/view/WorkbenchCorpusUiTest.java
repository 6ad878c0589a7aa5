package dev.weft.app.view;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.Progress;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.FollowViewModel;
import dev.weft.log.RecordingState;
import dev.weft.testsupport.GrowingFile;
import dev.weft.testcorpus.SharedCorpus;
import dev.weft.timeline.TimelineView;
import javafx.geometry.Point2D;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.ToggleButton;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real workbench on real recordings, headless: the acceptance walk of issue 4. */
@ExtendWith(ApplicationExtension.class)
class WorkbenchCorpusUiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    @Test
    void opensAChordRunAtItsFirstViolationThenZoomsPansStepsGoesToAndFilters(FxRobot robot) throws Exception {
        String log = "chord/chord-fix0-s2-violation.weftlog";
        JsonNode sidecar = new SharedCorpus.Entry(log, "", "", 0, "", "", 0, 0).sidecar();
        List<Long> violationOps = new ArrayList<>();
        sidecar.path("replay_check").path("parsed").path("violation_ops").forEach(v -> violationOps.add(v.get(1).asLong()));
        DocumentViewModel doc = ui.open(robot, SharedCorpus.conformance().resolve(log), null);
        assertEquals(violationOps.size(), doc.violations().stream().filter(v -> v.invariant().equals("per-channel-fifo")).count());
        // Issue 26: it opens on the most severe finding, the checker's ConnectedAppendages, not on fifo violation 1.
        assertTrue(violationOps.get(0) < doc.cursor(), "fifo violations come earlier");
        assertEquals(doc.findings().get(0).op(), (long) doc.cursor(), "opens at the most severe finding");
        assertEquals("ConnectedAppendages", doc.findings().get(0).invariant());
        TimelineView timeline = ui.window.documentPane().timeline();
        ui.screenshot(robot, "corpus-chord-opened");
        robot.interact(() -> timeline.showOps(0, 110));
        ui.settle();
        ui.screenshot(robot, "corpus-chord-first-violation-detail");

        // Zoom: Ctrl+wheel at the pointer and the keyboard; pan: drag.
        double span = timeline.getViewport().span();
        robot.moveTo(timeline).press(KeyCode.CONTROL).scroll(5);
        robot.release(KeyCode.CONTROL);
        ui.settle();
        assertNotEquals(span, timeline.getViewport().span(), 1e-9);
        robot.interact(timeline::fitAll);
        robot.interact(timeline::requestFocus);
        robot.type(KeyCode.EQUALS).type(KeyCode.EQUALS).type(KeyCode.EQUALS);
        ui.settle();
        assertTrue(timeline.getViewport().span() < 3771 / 3.0, "three zoom-ins: " + timeline.getViewport().span());
        double start = timeline.getViewport().start();
        Point2D p = timeline.localToScreen(700, 60);
        robot.moveTo(p).press(MouseButton.PRIMARY).moveBy(-250, 0).release(MouseButton.PRIMARY);
        ui.settle();
        assertTrue(timeline.getViewport().start() > start, "drag left shows later ops");
        ui.screenshot(robot, "corpus-chord-zoomed");

        // Step with the keyboard, go to an op by typing.
        int at = doc.cursor();
        robot.interact(timeline::requestFocus);
        robot.type(KeyCode.RIGHT).type(KeyCode.RIGHT);
        ui.settle();
        assertEquals(at + 2, doc.cursor());
        ui.goToByTyping(robot, doc, 1000);
        TableView<?> table = UiHarness.assertEventTableAt(robot, doc, 1000);
        Label stateHeader = robot.lookup("#stateHeader").queryAs(Label.class);
        assertTrue(stateHeader.getText().startsWith("state after op 1000 · vt " + doc.source().record(1000).vt() + " ns"), stateHeader.getText());

        // The inspector shows the selected record's canonical JSON and payload.
        robot.clickOn("Inspector");
        ui.settle();
        javafx.scene.control.TextArea json = robot.lookup("#inspectorJson").queryAs(javafx.scene.control.TextArea.class);
        var rec = doc.source().record(1000);
        assertEquals(dev.weft.log.CanonicalJson.record(rec.op(), rec.vt(), rec.event()), json.getText());
        ui.screenshot(robot, "corpus-chord-inspector");
        robot.clickOn("Chord ring");
        ui.settle();
        ui.screenshot(robot, "corpus-chord-ring");
        robot.clickOn("State");

        // Jump to the next violation.
        robot.clickOn("#nextViolation");
        ui.settle();
        long expected = doc.violations().stream().mapToLong(x -> x.op()).filter(o -> o > 1000).min().orElseThrow();
        assertEquals(expected, doc.cursor());

        // Filter node 6 (the observer) away: gone from the table and the timeline.
        int lane6 = -1;
        for (int i = 0; i < doc.source().timeline().laneCount(); i++) {
            if (doc.source().timeline().lanes().get(i).label().equals("node 6")) lane6 = i;
        }
        int hide = lane6;
        robot.interact(() -> ui.window.documentPane().filterBar().nodePicker().getCheckModel().clearCheck(hide));
        ui.settle();
        assertTrue(timeline.getHiddenLanes().contains(lane6));
        for (int i = 0; i < table.getItems().size(); i++) {
            assertNotEquals(lane6, doc.source().timeline().lane((Integer) table.getItems().get(i)));
        }
        assertTrue(table.getItems().size() < doc.size());
        UiHarness.assertEventCellsShowLines(table, doc);
        ui.screenshot(robot, "corpus-chord-node6-hidden");
    }

    @Test
    void aCorruptedLogOpensUpToTheProblemWithALocatedError(FxRobot robot) throws Exception {
        Path log = SharedCorpus.conformance().resolve("negative/neg-payload-edit-chainbreak-op999.weftlog");
        DocumentViewModel doc = ui.open(robot, log, null);
        assertEquals(999, doc.size(), "the 999 records before the broken one are shown");
        Label banner = robot.lookup("#errorBanner").queryAs(Label.class);
        assertTrue(banner.getText().contains(log.toString()), banner.getText());
        assertTrue(banner.getText().contains("line 1001"), banner.getText());
        assertTrue(banner.getText().contains("integrity chain broken at op 999: log truncated or edited"), banner.getText());
        assertEquals(999, ui.window.documentPane().timeline().errorOpProperty().get());
        ui.screenshot(robot, "corpus-corrupted-located-error");
    }

    /** Looked up per test, so the test is skipped, not failed, without the reference corpus. */
    private static Path chordViolation() {
        return SharedCorpus.conformance().resolve("chord/chord-fix0-s2-violation.weftlog");
    }

    /**
     * Following a recording while a writer thread appends it (pieces that often end mid-line, short pauses): the
     * document grows, the cursor stays pinned to the latest op or where the user put it, and once the {@code end}
     * record arrives it shows what a plain open shows.
     */
    @Test
    void followsARecordingAsItIsWrittenAndEndsAsAPlainOpen(FxRobot robot, @TempDir Path dir) throws Exception {
        byte[] log = Files.readAllBytes(chordViolation());
        Path live = dir.resolve("live.weftlog");
        // Holds half-way through line 1,502 (the header is line 1), then at the end of line 2,501, then writes the rest.
        GrowingFile writer = GrowingFile.start(log, live, 20261201L, 6000, 6,
                GrowingFile.afterLines(log, 1501) + 9, GrowingFile.afterLines(log, 2501));
        List<Integer> shownSizes = new CopyOnWriteArrayList<>();
        FollowViewModel[] follow = new FollowViewModel[1];
        robot.interact(() -> {
            follow[0] = ui.vm.follow(live);
            follow[0].recordsProperty().addListener((o, a, n) -> shownSizes.add(n.intValue()));
        });
        FollowViewModel f = follow[0];
        assertTrue(writer.awaitHeld(30));
        waitFor(() -> f.recordsProperty().get() == 1500, "the 1,500 complete records on screen");
        ui.settle();   // the checks of the last update

        // Half-written: everything before the cut-off line, pinned to the latest op, no error anywhere.
        DocumentViewModel doc = ui.vm.document();
        assertEquals(1500, doc.size());
        assertEquals(1499, doc.cursor(), "pinned to the latest op");
        assertTrue(doc.verification().ok());
        assertFalse(doc.violations().isEmpty(), "fifo violations found so far are listed");
        assertEquals("● following live.weftlog — 1,500 records", label(robot, "#followStatus"));
        assertTrue(robot.lookup("#followStatus").query().getParent().isVisible());
        assertEquals(1500, ui.window.documentPane().timeline().getModel().size());
        ui.screenshot(robot, "follow-half-written");

        // The user steps back: the cursor stays there as records arrive (tail -f scrolled back).
        robot.interact(() -> ui.window.documentPane().timeline().requestFocus());
        robot.type(KeyCode.LEFT);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(1498, ui.vm.document().cursor());
        assertFalse(robot.lookup("#followPin").queryAs(ToggleButton.class).isSelected(), "stepping back unpins");
        // A filter typed while following stays as the recording grows.
        robot.clickOn("#opFrom").write("1000").type(KeyCode.ENTER);
        ui.settle();
        assertEquals(1000L, ui.window.documentPane().filter().opFromProperty().get());
        writer.release();
        assertTrue(writer.awaitHeld(60));
        waitFor(() -> f.recordsProperty().get() == 2500, "the records up to the writer's second pause");
        assertEquals(1498, ui.vm.document().cursor(), "the cursor stays where the user put it");
        assertEquals(1, ui.window.tabs().tabs().size(), "one tab, grown in place");
        ui.settle();
        assertEquals(1000L, ui.window.documentPane().filter().opFromProperty().get(), "the filter carried over");
        assertEquals("1000", robot.lookup("#opFrom").queryAs(javafx.scene.control.TextField.class).getText());
        assertFalse(ui.window.documentPane().filter().shownOpsProperty().get().get(999), "ops before 1000 still filtered out");

        // Pinning again jumps to the latest op and follows it to the end.
        robot.clickOn("#followPin");
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(f.pinnedProperty().get());
        assertEquals(2499, ui.vm.document().cursor(), "pinning jumps to the latest op");
        writer.release();
        waitFor(() -> !f.followingProperty().get(), "the end record");
        writer.join(10);
        ui.settle();

        DocumentViewModel done = ui.vm.document();
        assertEquals(RecordingState.ENDED, f.stateProperty().get());
        try (IndexedRecordingSource plain = IndexedRecordingSource.open(chordViolation(), Progress.NONE)) {
            assertEquals(plain.size(), done.size());
            assertEquals(plain.verification(), done.verification(), "same digest as a plain open");
            assertEquals(plain.check(Set.copyOf(done.selectedInvariants()), Progress.NONE), List.copyOf(done.violations()));
            assertEquals(plain.size() - 1, done.cursor(), "pinned to the last op");
            assertEquals(plain.size(), ui.window.documentPane().timeline().getModel().size());
        }
        assertTrue(shownSizes.size() >= 3, "grew in steps: " + shownSizes);
        for (int i = 1; i < shownSizes.size(); i++) assertTrue(shownSizes.get(i) > shownSizes.get(i - 1), "only grows: " + shownSizes);
        assertFalse(robot.lookup("#followStatus").query().getParent().isVisible(), "the following… line goes with following");
        assertTrue(label(robot, "#statusMessage").startsWith("live.weftlog: recording ended — 3,771 records · verified, digest "),
                label(robot, "#statusMessage"));
        assertEquals(1, ui.window.tabs().tabs().size());
        ui.screenshot(robot, "follow-ended");
    }

    private static String label(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    private static void waitFor(BooleanSupplier condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            boolean[] ok = new boolean[1];
            WaitForAsyncUtils.asyncFx(() -> ok[0] = condition.getAsBoolean()).get(60, TimeUnit.SECONDS);
            if (ok[0]) return;
            Thread.sleep(20);
        }
        throw new AssertionError("waited 120 s for " + what);
    }
}
