package dev.weft.app.view;

import dev.weft.testcorpus.SharedCorpus;
import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.Verification;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.timeline.TimelineView;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleButton;
import javafx.scene.image.WritableImage;
import javafx.scene.input.KeyCode;
import javafx.scene.paint.Color;
import javafx.scene.text.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One test per defect the issue lists (each failed on the code before the fix), on real recordings. */
@ExtendWith(ApplicationExtension.class)
class WorkbenchDefectsUiTest {

    /** Looked up per test, so the test is skipped, not failed, without the reference corpus. */
    static Path raftViolation() {
        return SharedCorpus.conformance().resolve("raft/raft-fix0-s131-violation.weftlog");
    }

    /** Looked up per test, so the test is skipped, not failed, without the reference corpus. */
    static Path chordViolation() {
        return SharedCorpus.conformance().resolve("chord/chord-fix0-s2-violation.weftlog");
    }

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();
    private DocumentViewModel doc;

    /** A Raft run, then a Chord one: one open each, many defects checked on the way (UI tests are slow). */
    @Test
    void raftThenChordWalk(FxRobot robot) throws Exception {
        theWelcomeToolbarIsDisabledUntilARecordingIsOpen(robot);
        tileTitlesAndSubLinesAreBodyTextSize(robot);
        searchFindsPayloadTextCountsAndHighlightsMatches(robot);
        theInspectorDecodesARaftReportAsRaftOnly(robot);
        theNodePickerStaysOpenWhileTicking(robot);
        thePayloadFilterNarrowsTheTimelineKeepsThePlaceAndSaysWhatItHides(robot);
        playBecomesPauseAndTheGoToFieldForgetsTheLastFile(robot);   // opens the Chord run
        keysWorkWhereverTheFocusIsButNotWhileTyping(robot);
        aMillionOpsZoomToTwoHundredInAFewPresses(robot);
        stateKeysAreNotCutOff(robot);
        theDarkThemesSelectedRowIsNotAGlaringBar(robot);
    }

    private void theWelcomeToolbarIsDisabledUntilARecordingIsOpen(FxRobot robot) throws Exception {
        assertTrue(robot.lookup("#stepForward").queryAs(Button.class).isDisabled());
        assertTrue(robot.lookup("#play").queryAs(ToggleButton.class).isDisabled());
        assertFalse(robot.lookup("Open…").queryAs(Button.class).isDisabled());
        doc = ui.open(robot, raftViolation(), 5);
        assertFalse(robot.lookup("#stepForward").queryAs(Button.class).isDisabled());
    }

    private void playBecomesPauseAndTheGoToFieldForgetsTheLastFile(FxRobot robot) throws Exception {
        ToggleButton play = robot.lookup("#play").queryAs(ToggleButton.class);
        assertTrue(play.getText().contains("Play"));
        robot.clickOn("#play");
        assertTrue(play.getText().contains("Pause"), play.getText());
        robot.clickOn("#play");
        assertTrue(play.getText().contains("Play"));
        robot.clickOn("#goToField").write("77");
        doc = ui.open(robot, chordViolation(), 100);
        assertEquals("", robot.lookup("#goToField").queryAs(TextField.class).getText());
        // File ▸ Open starts in the open recording's folder.
        assertEquals(chordViolation().toAbsolutePath().getParent(), ui.vm.openDialogDirectory());
    }

    @Test
    void aBadLogsBannerNamesTheLineOnce(FxRobot robot) throws Exception {
        Verification v = Verification.readError(90, 91, "line 91: malformed record: expected ':'");
        String text = DocumentPane.bannerText(Path.of("x.weftlog"), 90, v);
        assertEquals(1, text.split("line 91", -1).length - 1, text);
        assertTrue(text.contains("x.weftlog, line 91: malformed record"), text);
        // Every negative corpus log that opens: its banner names its line once.
        java.io.File[] negatives = SharedCorpus.conformance().resolve("negative").toFile().listFiles((d, n) -> n.matches(".*\\.weftlog(\\.gz)?"));
        for (java.io.File f : negatives) {
            try (var src = IndexedRecordingSource.open(f.toPath(), dev.weft.app.source.Progress.NONE)) {
                Verification bad = src.verification();
                if (bad.ok() || bad.line() <= 0) continue;
                String banner = DocumentPane.bannerText(f.toPath(), src.size(), bad);
                assertEquals(1, banner.split("line " + bad.line() + "\\b", -1).length - 1, banner);
            } catch (dev.weft.app.source.RecordingOpener.OpenException e) {
                // Cannot be shown at all: the welcome screen says why (another test).
            }
        }
    }

    private void tileTitlesAndSubLinesAreBodyTextSize(FxRobot robot) throws Exception {
        for (var n : robot.lookup(".tile-title").queryAll()) {
            Label l = (Label) n;
            assertTrue(l.getFont().getSize() >= 12 && l.getHeight() >= 14, l.getText() + " " + l.getFont() + " h=" + l.getHeight());
        }
        Label sub = robot.lookup("#verdictDetail").queryAs(Label.class);
        assertTrue(sub.getFont().getSize() >= 12 && sub.getHeight() >= 14, sub.getFont() + " h=" + sub.getHeight());
        ui.screenshot(robot, "defect-tiles-readable");
    }

    @Test
    void untickingAnInvariantClearsItsVerdictAndItsMarksTogether(FxRobot robot) throws Exception {
        Path log = SharedCorpus.conformance().resolve("fuzz/demo-out").toFile().listFiles((d, n) -> n.endsWith(".weftlog"))[0].toPath();
        DocumentViewModel doc = ui.open(robot, log, null);
        TimelineView timeline = ui.window.documentPane().timeline();
        assertEquals("VIOLATED", robot.lookup("#verdictValue").queryAs(Label.class).getText());
        int recorded = doc.timeline().violationOps().length;
        assertTrue(recorded > 0, "the repro records its violation");
        robot.clickOn("Invariants");
        for (String name : doc.availableInvariants()) robot.clickOn("#check-" + name);
        ui.settle();
        assertEquals("CLEAN", robot.lookup("#verdictValue").queryAs(Label.class).getText());
        assertEquals(recorded, timeline.suppressedMarkersProperty().get().length, "the recorded violation marks are hidden too");
        assertEquals(0, timeline.markersProperty().get().length);
    }

    private void keysWorkWhereverTheFocusIsButNotWhileTyping(FxRobot robot) throws Exception {
        TimelineView timeline = ui.window.documentPane().timeline();
        robot.interact(timeline::fitAll);
        robot.clickOn("#eventTable");                    // focus away from the timeline
        double span = timeline.getViewport().span();
        robot.type(KeyCode.W);
        ui.settle();
        assertTrue(timeline.getViewport().span() < span / 3, "W zooms with the table focused");
        double start = timeline.getViewport().start();
        robot.type(KeyCode.D);
        ui.settle();
        assertTrue(timeline.getViewport().start() > start, "D pans right");
        robot.type(KeyCode.DIGIT0);
        ui.settle();
        assertEquals(span, timeline.getViewport().span(), 1e-6, "0 fits all");
        robot.clickOn("#goToField").write("ws0");
        ui.settle();
        assertEquals("ws0", robot.lookup("#goToField").queryAs(TextField.class).getText(), "typing is left alone");
        assertEquals(span, timeline.getViewport().span(), 1e-6);
        robot.type(KeyCode.ESCAPE);
        robot.push(KeyCode.SHIFT, KeyCode.SLASH);
        ui.settle();
        if (!ui.window.keysOverlay().isVisible()) robot.type(KeyCode.F1);
        assertTrue(ui.window.keysOverlay().isVisible(), "? or F1 opens the keys card");
        ui.screenshot(robot, "defect-keys-overlay");
        robot.type(KeyCode.ESCAPE);
        assertFalse(ui.window.keysOverlay().isVisible());
        // Menus show the accelerators.
        assertNotNull(ui.window.root().getTop().lookup(".menu-bar"));
        assertEquals(doc.cursor(), doc.cursor());
    }

    private void aMillionOpsZoomToTwoHundredInAFewPresses(FxRobot robot) throws Exception {
        TimelineView timeline = ui.window.documentPane().timeline();
        double presses = Math.log(1_000_000 / 200.0) / Math.log(TimelineView.KEY_ZOOM);
        assertTrue(presses <= 7, "presses from 1M to 200 ops: " + presses);
        robot.interact(timeline::fitAll);
        double span = timeline.getViewport().span();
        robot.clickOn("#eventTable").type(KeyCode.W, 2);
        ui.settle();
        assertEquals(span / 16, timeline.getViewport().span(), span / 160);
        assertTrue(doc.size() > 0);
    }

    private void searchFindsPayloadTextCountsAndHighlightsMatches(FxRobot robot) throws Exception {
        robot.interact(() -> doc.goTo(0));
        robot.clickOn("#searchField").write("RPT").type(KeyCode.ENTER);
        ui.settle();
        int[] matches = ui.window.documentPane().search().matchesProperty().get();
        assertTrue(matches.length >= 200, "every state report (send and delivery) matches: " + matches.length);
        assertEquals(matches[0], doc.cursor(), "goes to the first match after op 0");
        assertEquals("1 of " + matches.length + " matches", robot.lookup("#searchStatus").queryAs(Label.class).getText());
        assertEquals(matches.length, ui.window.documentPane().timeline().highlightsProperty().get().length);
        robot.type(KeyCode.F3);
        ui.settle();
        assertEquals(matches[1], doc.cursor());
        ui.screenshot(robot, "defect-search-rpt");
    }

    private void thePayloadFilterNarrowsTheTimelineKeepsThePlaceAndSaysWhatItHides(FxRobot robot) throws Exception {
        robot.interact(() -> doc.goTo(1500));
        ui.settle();
        TimelineView timeline = ui.window.documentPane().timeline();
        robot.clickOn("payload contains").write("RPT").type(KeyCode.ENTER);
        ui.settle();
        TableView<?> table = robot.lookup("#eventTable").queryAs(TableView.class);
        var shown = timeline.shownOpsProperty().get();
        assertNotNull(shown, "the timeline is filtered too");
        assertEquals(table.getItems().size(), shown.cardinality());
        assertEquals(1500, doc.cursor(), "the cursor stays");
        int near = table.getItems().size() - 1;
        for (int i = 0; i < table.getItems().size(); i++) if ((Integer) table.getItems().get(i) >= 1500) { near = i; break; }
        ui.settle();
        int first = firstVisibleRow(table);
        assertTrue(first >= 0 && first <= near && near <= first + 40, "the table shows the rows round op 1500: first row " + first + ", nearest " + near);
        String indicator = robot.lookup("#filterIndicator").queryAs(Label.class).getText();
        assertTrue(indicator.matches("filters hide [0-9,]+ of 3,036 events"), indicator);
        ui.screenshot(robot, "defect-payload-filter");
    }

    private static int firstVisibleRow(TableView<?> table) {
        var flow = (javafx.scene.control.skin.VirtualFlow<?>) table.lookup(".virtual-flow");
        return flow == null || flow.getFirstVisibleCell() == null ? -1 : flow.getFirstVisibleCell().getIndex();
    }

    private void theNodePickerStaysOpenWhileTicking(FxRobot robot) throws Exception {
        robot.clickOn("#nodeFilter");
        ui.settle();
        ComboBox<?> combo = (ComboBox<?>) robot.lookup("#nodeFilter").query().lookupAll(".combo-box").stream()
                .filter(n -> n instanceof ComboBox).findFirst().orElseThrow();
        assertTrue(combo.isShowing());
        // Tick in the picker's own list (the popup), as a person would: its check box for node 1.
        javafx.scene.Node cell = robot.lookup(".list-cell").match((javafx.scene.Node n) -> n instanceof javafx.scene.control.ListCell<?> c
                && "node 1".equals(c.getText()) && n.getScene() != ui.scene).query();
        robot.clickOn(cell.lookup(".check-box"));
        ui.settle();
        assertTrue(combo.isShowing(), "still open after a tick");
        assertTrue(ui.window.documentPane().timeline().getHiddenLanes().size() == 1);
        robot.type(KeyCode.ESCAPE);
    }

    private void stateKeysAreNotCutOff(FxRobot robot) throws Exception {
        robot.interact(() -> doc.goTo(1000));
        ui.settle();
        int checked = 0;
        for (var n : robot.lookup("#stateTable").query().lookupAll(".table-cell")) {
            if (!(n instanceof TableCell<?, ?> c) || c.getTableColumn() == null || !"key".equals(c.getTableColumn().getText())
                    || c.getText() == null || c.getText().isEmpty()) continue;
            Text t = (Text) c.lookup(".text");
            assertEquals(c.getText(), t.getText(), "shown whole");
            checked++;
        }
        assertTrue(checked > 3, "keys checked: " + checked);
    }

    private void theDarkThemesSelectedRowIsNotAGlaringBar(FxRobot robot) throws Exception {
        robot.clickOn("#themeToggle");
        ui.settle();
        TableView<?> table = robot.lookup("#eventTable").queryAs(TableView.class);
        var row = table.lookupAll(".table-row-cell").stream().filter(r -> r.getPseudoClassStates().stream()
                .anyMatch(p -> p.getPseudoClassName().equals("selected"))).findFirst().orElseThrow();
        WritableImage[] img = new WritableImage[1];
        robot.interact(() -> img[0] = row.snapshot(null, null));
        Color c = img[0].getPixelReader().getColor(3, (int) (img[0].getHeight() / 2));
        assertTrue(c.getBrightness() < 0.5, "selected row background " + c);
        ui.screenshot(robot, "defect-dark-selected-row");
    }

    private void theInspectorDecodesARaftReportAsRaftOnly(FxRobot robot) throws Exception {
        // The cursor sits on a search match for RPT: a state report.
        robot.clickOn("Inspector");
        ui.settle();
        String decoded = robot.lookup(".decoded-report").queryAs(Label.class).getText();
        assertTrue(decoded.startsWith("Raft report: node"), decoded);
        assertFalse(decoded.contains("Chord"), decoded);
        assertNotEquals(0, doc.cursor());
    }

    @Test
    void rangeSelectionMeasuringAndBookmarks(FxRobot robot) throws Exception {
        Path dir = Files.createTempDirectory("weft-bm");
        Path copy = Files.copy(raftViolation(), dir.resolve("raft.weftlog"));
        byte[] before = Files.readAllBytes(copy);
        DocumentViewModel doc = ui.open(robot, copy, 200);
        TimelineView timeline = ui.window.documentPane().timeline();
        robot.interact(() -> timeline.showOps(0, 400));
        ui.settle();
        // Drag along the ruler: a range with its stats.
        var a = timeline.localToScreen(100 + 96, 10);
        robot.moveTo(a).press(javafx.scene.input.MouseButton.PRIMARY).moveBy(300, 0).release(javafx.scene.input.MouseButton.PRIMARY);
        ui.settle();
        int[] r = timeline.rangeProperty().get();
        assertNotNull(r, "a drag on the ruler selects a range");
        var stats = ui.window.documentPane().range().statsProperty().get();
        assertEquals(r[1] - r[0] + 1, stats.ops());
        assertTrue(robot.lookup("#rangeText").queryAs(Label.class).getText().startsWith("ops " + r[0] + "–" + r[1]));
        ui.screenshot(robot, "defect-range-selected");
        robot.clickOn("Zoom to range");
        ui.settle();
        int[] vis = timeline.visibleOps();
        assertTrue(vis[0] <= r[0] && vis[1] >= r[1] && vis[1] - vis[0] < (r[1] - r[0]) * 1.3 + 4, vis[0] + ".." + vis[1]);
        // Measure between two events.
        robot.interact(() -> {
            doc.selectionProperty().set(r[0]);
            timeline.measureOpProperty().set(r[1]);
        });
        assertTrue(doc.messageProperty().get().contains("Δ " + (r[1] - r[0]) + " ops"), doc.messageProperty().get());
        // Bookmarks live beside the recording, never inside it.
        robot.interact(() -> ui.window.documentPane().bookmarks().put(210, "second leader soon"));
        Path sidecar = dir.resolve("raft.weftlog.bookmarks");
        assertEquals("210\tsecond leader soon\n", Files.readString(sidecar));
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(copy)));
        assertEquals(1, timeline.bookmarksProperty().get().length);
        assertEquals(210, new dev.weft.app.vm.Bookmarks(copy).items().get(0).op(), "read back when reopened");
    }
}
