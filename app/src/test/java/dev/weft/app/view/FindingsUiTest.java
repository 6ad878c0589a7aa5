package dev.weft.app.view;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.findings.FindingKind;
import dev.weft.findings.RecordingFindings;
import dev.weft.testcorpus.SharedCorpus;
import dev.weft.timeline.TimelineView;
import javafx.geometry.Bounds;
import javafx.scene.control.Label;
import javafx.scene.control.TreeItem;
import javafx.scene.control.TreeTableColumn;
import javafx.scene.control.TreeTableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 26, findings ranked: a recording opens on its most severe finding (the protocol verdict, not the first of many
 * fifo violations), the bar walks the ranking, the Findings tab groups by kind with counts, the ruler tells a verdict
 * from a network marker, and the timeline never moves when the bars change.
 */
@ExtendWith(ApplicationExtension.class)
class FindingsUiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    private String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    @Test
    void chordOpensOnAtLeastOneRingAndTheBarWalksTheRanking(FxRobot robot) throws Exception {
        Path log = SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog");
        long ringOp = RecordingFindings.read(log).top().op();    // what `weft explain` names first
        DocumentViewModel doc = ui.open(robot, log, null);

        assertEquals(ringOp, doc.cursor(), "opens on the ring, not on fifo violation 1");
        assertEquals(FindingKind.of(dev.weft.protocol.Protocols.named("chord")), doc.findings().get(0).kind());
        assertTrue(doc.violations().get(0).op() < ringOp, "there are fifo violations before it");
        assertEquals("AtLeastOneRing", text(robot, "#violationBarName"));
        assertEquals("violation 1 of 31 · op " + ringOp, text(robot, "#violationBarPosition"));
        assertTrue(text(robot, "#violationBarText").startsWith("There is no ring"));
        assertTrue(text(robot, "#violationBarText").contains("to the end of the run"), "says it holds at the end");

        // The ruler: a verdict marker at the ring's op, network markers elsewhere.
        TimelineView t = ui.window.documentPane().timeline();
        assertArrayEquals(new int[] {(int) ringOp}, t.verdictMarkersProperty().get());

        // The findings list: groups in ranking order with counts; the ring's finding selected.
        robot.interact(() -> ui.window.documentPane().tabs().getSelectionModel().select(2));
        ui.settle();
        TreeTableView<?> list = robot.lookup("#findingsList").queryAs(TreeTableView.class);
        List<String> groups = new ArrayList<>();
        for (TreeItem<?> g : list.getRoot().getChildren()) groups.add(g.getValue().toString());
        assertEquals(List.of("Chord ring (1)", "per-channel FIFO (30) · network invariant"), groups);
        assertTrue(list.getSelectionModel().getSelectedItem().getValue().toString().startsWith("#1  op " + ringOp + " · AtLeastOneRing"));
        // Its columns are a table's: resizable and chosen through the header's menu button (the checker's own message
        // is one, off until asked for); the row's columns say the rank, op, invariant and plain words.
        assertTrue(list.isTableMenuButtonVisible(), "the findings list has the column chooser");
        List<String> titles = new ArrayList<>();
        for (TreeTableColumn<?, ?> c : list.getColumns()) {
            assertTrue(c.isResizable(), c.getText() + " resizes");
            titles.add(c.getText() + (c.isVisible() ? "" : " (hidden)"));
        }
        assertEquals(List.of("finding", "op", "what happened", "invariant", "checker's message (hidden)"), titles);
        int selected = list.getSelectionModel().getSelectedIndex();
        assertEquals("#1", list.getColumns().get(0).getCellData(selected));
        assertEquals(Long.toString(ringOp), list.getColumns().get(1).getCellData(selected));
        assertTrue(((String) list.getColumns().get(2).getCellData(selected)).startsWith("There is no ring"));
        assertEquals("AtLeastOneRing", list.getColumns().get(3).getCellData(selected));
        assertEquals("Chord ring (1)", list.getColumns().get(0).getCellData(0), "a group's row: its name and count");
        assertEquals("a verdict about the program", list.getColumns().get(2).getCellData(0));
        robot.interact(() -> list.getColumns().get(4).setVisible(true));
        assertEquals(doc.findings().get(0).message(), list.getColumns().get(4).getCellData(selected));
        robot.interact(() -> list.getColumns().get(4).setVisible(false));
        ui.screenshot(robot, "findings-chord-at-least-one-ring");

        // next ▶ walks the ranking: rank 2 is the earliest fifo violation; ◀ prev comes back to the ring.
        robot.clickOn("next ▶");
        ui.settle();
        assertEquals(doc.findings().get(1).op(), doc.cursor());
        assertEquals("violation 2 of 31 · op " + doc.findings().get(1).op(), text(robot, "#violationBarPosition"));
        robot.clickOn("◀ prev");
        ui.settle();
        assertEquals(ringOp, doc.cursor());
    }

    @Test
    void aCampaignHitOpensOnItsOwnFinding(FxRobot robot) throws Exception {
        DocumentViewModel doc = ui.open(robot, SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog"), null);
        robot.interact(() -> doc.goTo(0));
        robot.interact(() -> assertTrue(doc.goToFindingOf("per-channel-fifo")));
        assertEquals(doc.findings().get(1).op(), doc.cursor(), "the most severe fifo finding, rank 2");
        assertEquals("violation 2 of 31 · op " + doc.cursor(), text(robot, "#violationBarPosition"));
        robot.interact(() -> assertTrue(!doc.goToFindingOf("ElectionSafety")));
        assertEquals(doc.findings().get(1).op(), doc.cursor(), "an invariant the recording lacks leaves the cursor");
    }

    @Test
    void raftOpensOnElectionSafety(FxRobot robot) throws Exception {
        DocumentViewModel doc = ui.open(robot, SharedCorpus.conformance().resolve("raft/raft-fix0-s131-violation.weftlog"), null);
        assertEquals(243, doc.cursor());
        assertEquals("ElectionSafety", text(robot, "#violationBarName"));
        assertEquals("violation 1 of 12 · op 243", text(robot, "#violationBarPosition"));
        ui.screenshot(robot, "findings-raft-election-safety");
    }

    @Test
    void theTimelineDoesNotMoveWhenTheBarsChange(FxRobot robot) throws Exception {
        DocumentViewModel doc = ui.open(robot, SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog"), null);
        TimelineView t = ui.window.documentPane().timeline();
        Bounds onFinding = t.localToScene(t.getLayoutBounds());
        robot.interact(() -> doc.goTo(3));    // on no finding: the bar changes its words, not its size
        ui.settle();
        assertEquals(onFinding, t.localToScene(t.getLayoutBounds()));
        robot.interact(() -> t.rangeProperty().set(new int[] {10, 200}));   // the range bar appears
        ui.settle();
        assertTrue(robot.lookup("#rangeBar").query().isVisible());
        assertEquals(onFinding, t.localToScene(t.getLayoutBounds()));
        ui.screenshot(robot, "findings-stable-layout-range");
        robot.interact(() -> t.rangeProperty().set(null));
        ui.settle();
        assertEquals(onFinding, t.localToScene(t.getLayoutBounds()));
    }
}
