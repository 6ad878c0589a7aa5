package dev.weft.app.view;

import dev.weft.testsupport.SharedCorpus;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.timeline.TimelineView;
import javafx.geometry.Point2D;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The real workbench on real recordings, headless: the acceptance walk of issue 4. */
@ExtendWith(ApplicationExtension.class)
class WorkbenchCorpusUiTest {

    private UiHarness ui;

    @Start
    void start(Stage stage) {
        ui = new UiHarness(stage, IndexedRecordingSource::open);
    }

    @Test
    void opensAChordRunAtItsFirstViolationThenZoomsPansStepsGoesToAndFilters(FxRobot robot) throws Exception {
        String log = "chord/chord-fix0-s2-violation.weftlog";
        JsonNode sidecar = new SharedCorpus.Entry(log, "", "", 0, "", "", 0, 0).sidecar();
        List<Long> violationOps = new ArrayList<>();
        sidecar.path("replay_check").path("parsed").path("violation_ops").forEach(v -> violationOps.add(v.get(1).asLong()));
        DocumentViewModel doc = ui.open(robot, SharedCorpus.conformance().resolve(log), null);
        assertEquals(violationOps.size(), doc.violations().stream().filter(v -> v.invariant().equals("per-channel-fifo")).count());
        assertEquals(violationOps.get(0), (long) doc.cursor(), "opens at the first violation");
        TimelineView timeline = ui.window.documentPane().timeline();
        ui.screenshot(robot, "corpus-chord-opened");
        robot.interact(() -> timeline.showOps(0, 110));
        ui.settle();
        ui.screenshot(robot, "corpus-chord-first-violation-detail");

        // Zoom: wheel at the pointer and the keyboard; pan: drag.
        double span = timeline.getViewport().span();
        robot.moveTo(timeline).scroll(5);
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
        robot.clickOn("#goToField").write("1000").type(KeyCode.ENTER);
        ui.settle();
        assertEquals(1000, doc.cursor());
        TableView<?> table = robot.lookup("#eventTable").queryAs(TableView.class);
        assertEquals(1000, table.getSelectionModel().getSelectedItem());
        UiHarness.assertEventCellsShowLines(table, doc);
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
}
