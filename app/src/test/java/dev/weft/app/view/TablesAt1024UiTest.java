package dev.weft.app.view;

import dev.weft.app.widgets.TableChrome;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 26 at 1024×700: every table's columns can be chosen (the header's menu button) and resized, a cut cell shows
 * its whole text as a tooltip, and every toolbar control is on screen (the toolbar wraps instead of hiding them).
 */
@ExtendWith(ApplicationExtension.class)
class TablesAt1024UiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings(1024, 700);

    /**
     * Opens a Chord log of our own corpus (so the test runs without the optional reference corpus) with patience:
     * the machine these tests run on is shared and loaded.
     */
    private void open(FxRobot robot) throws Exception {
        java.util.concurrent.CompletableFuture<dev.weft.app.vm.DocumentViewModel> ready = new java.util.concurrent.CompletableFuture<>();
        java.nio.file.Path log = dev.weft.testcorpus.OwnCorpus.dir().resolve("chord/chord-fix0-s3-violation.weftlog");
        robot.interact(() -> ui.window.open(log, null, ready::complete));
        ready.get(300, java.util.concurrent.TimeUnit.SECONDS);
        ui.settle();
    }

    @Test
    void everyTableHasAColumnChooserAndCutCellsShowTheirText(FxRobot robot) throws Exception {
        open(robot);
        List<TableView<?>> tables = new ArrayList<>();
        for (String tab : List.of("State", "Invariants", "Bookmarks")) {
            robot.clickOn(tab);
            ui.settle();
            for (Node n : robot.lookup(".table-view").queryAll()) {
                if (n.isVisible() && n.getScene() != null && !tables.contains(n)) tables.add((TableView<?>) n);
            }
        }
        assertTrue(tables.size() >= 4, "the events table, state, invariants (2) and bookmarks: " + tables.size());
        for (TableView<?> t : tables) {
            assertTrue(t.isTableMenuButtonVisible(), t.getId() + " has the column chooser");
            assertTrue(t.getColumns().stream().allMatch(c -> c.isResizable()), t.getId() + " columns resize");
        }

        // The invariants table: hide a column through the chooser's model (what its menu items toggle).
        TableView<?> inv = tables.stream().filter(t -> "violationTable".equals(t.getId()) || t.getColumns().size() == 5)
                .findFirst().orElseThrow();
        robot.interact(() -> inv.getColumns().get(1).setVisible(false));
        assertFalse(inv.getVisibleLeafColumns().contains(inv.getColumns().get(1)));

        // A cell whose text is cut (an event line at 1024 px): on hover its tooltip holds the whole text.
        TableView<?> events = robot.lookup("#eventTable").queryAs(TableView.class);
        Bounds inside = events.localToScene(events.getLayoutBounds());
        Labeled cut = null;
        for (Node n : events.lookupAll(".table-cell")) {
            Labeled cell = (Labeled) n;
            Bounds at = cell.localToScene(cell.getLayoutBounds());
            if (cell.isVisible() && at.getMinY() > inside.getMinY() + 30 && at.getMaxY() < inside.getMaxY() - 20
                    && cell.getText() != null && cell.getText().length() > 40 && TableChrome.isCut(cell)) {
                cut = cell;
                break;
            }
        }
        assertNotNull(cut, "at 1024 px some event line is cut");
        Labeled target = cut;
        robot.moveTo(target);
        ui.settle();
        assertNotNull(target.getTooltip(), "a cut cell gets a tooltip: " + target.getText() + " hover " + target.isHover()
                + " at " + target.localToScene(target.getLayoutBounds()));
        assertEquals(target.getText(), target.getTooltip().getText());
        Labeled whole = null;
        for (Node n : events.lookupAll(".table-cell")) {
            Labeled cell = (Labeled) n;
            Bounds at = cell.localToScene(cell.getLayoutBounds());
            if (cell.isVisible() && at.getMinY() > inside.getMinY() + 30 && at.getMaxY() < inside.getMaxY() - 20
                    && cell.getText() != null && !cell.getText().isEmpty() && !TableChrome.isCut(cell)) {
                whole = cell;
                break;
            }
        }
        assertNotNull(whole);
        Labeled shown = whole;
        robot.moveTo(shown);
        ui.settle();
        assertEquals(null, shown.getTooltip(), "a cell shown whole needs no tooltip: " + shown.getText());
        ui.screenshot(robot, "tables-1024x700");
    }

    @Test
    void everyToolbarControlIsOnScreenAt1024(FxRobot robot) throws Exception {
        open(robot);
        Node bar = robot.lookup(".tool-bar").query();
        Bounds scene = new javafx.geometry.BoundingBox(0, 0, 1024, 700);
        List<String> off = new ArrayList<>();
        for (Node n : ((javafx.scene.Parent) bar).lookupAll(".button, .toggle-button, .text-field, .combo-box-base")) {
            if (!n.isVisible() || n.getScene() == null) continue;
            Bounds b = n.localToScene(n.getLayoutBounds());
            if (b.getWidth() <= 0 || !scene.contains(b)) off.add(n.toString());
        }
        assertTrue(off.isEmpty(), "toolbar controls outside the 1024×700 window: " + off);
        Bounds barBounds = bar.localToScene(bar.getLayoutBounds());
        assertTrue(barBounds.getMaxX() <= 1024.5, "the toolbar wraps within the window: " + barBounds);
        ui.screenshot(robot, "toolbar-1024x700");
    }
}
