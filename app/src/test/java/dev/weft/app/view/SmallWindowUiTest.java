package dev.weft.app.view;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.testcorpus.SharedCorpus;
import dev.weft.timeline.TimelineView;
import javafx.geometry.Bounds;
import javafx.scene.input.KeyCode;
import javafx.scene.input.ScrollEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 26, layout at 1024×700: the lanes that do not fit scroll (the wheel scrolls them, Ctrl+wheel zooms), every lane
 * is reachable, and the lane of the finding opened on is on screen.
 */
@ExtendWith(ApplicationExtension.class)
class SmallWindowUiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings(1024, 700);

    /** A wheel notch over the timeline, as the mouse sends it (Ctrl held or not). */
    private static void wheel(FxRobot robot, TimelineView t, double dy, boolean ctrl) {
        Bounds b = t.localToScene(t.getLayoutBounds());
        double x = b.getWidth() / 2, y = b.getHeight() / 3;
        robot.interact(() -> javafx.event.Event.fireEvent(t, new ScrollEvent(ScrollEvent.SCROLL, x, y, b.getMinX() + x, b.getMinY() + y,
                false, ctrl, false, false, false, false, 0, dy, 0, dy, ScrollEvent.HorizontalTextScrollUnits.NONE, 0,
                ScrollEvent.VerticalTextScrollUnits.NONE, 0, 0, null)));
    }

    private void assertLegendWhole() {
        javafx.scene.layout.FlowPane legend = ui.window.documentPane().legend();
        double needed = legend.prefHeight(legend.getWidth());
        assertTrue(legend.getHeight() >= needed - 0.5, "legend " + legend.getHeight() + " px of the " + needed + " its rows need");
        javafx.scene.Node top = ui.window.documentPane().vertical().getItems().get(0);
        Bounds legendAt = legend.localToScene(legend.getLayoutBounds());
        Bounds topAt = top.localToScene(top.getLayoutBounds());
        assertTrue(legendAt.getMaxY() <= topAt.getMaxY() + 0.5, "the legend ends at " + legendAt.getMaxY()
                + ", inside the timeline's part of the window (to " + topAt.getMaxY() + ")");
    }

    @Test
    void lanesScrollAndTheWheelScrollsWhileCtrlWheelZooms(FxRobot robot) throws Exception {
        DocumentViewModel doc = ui.open(robot, SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog"), null);
        TimelineView t = ui.window.documentPane().timeline();
        List<String> all = t.getModel().lanes().stream().map(l -> l.label()).toList();
        assertFalse(t.lanesFit(), "at 1024×700 the " + all.size() + " lanes do not fit: " + t.lanesOnScreen());
        assertTrue(robot.lookup("#laneScroll").query().isVisible(), "a scroll bar says there is more");
        String laneOfFinding = all.get(t.getModel().lane(doc.cursor()));
        assertTrue(t.lanesOnScreen().contains(laneOfFinding), "the finding's lane is on screen: " + t.lanesOnScreen());
        ui.screenshot(robot, "small-window-1024x700-top");

        // The legend under the lanes is whole: as tall as its wrapped rows need, and above the tables' split; also in
        // the 1016×668 a 1024×700 screen leaves a window that keeps room for decorations (where its last row was cut).
        assertLegendWhole();
        robot.interact(() -> {
            javafx.stage.Window w = t.getScene().getWindow();
            w.setWidth(1016);
            w.setHeight(668);
        });
        ui.settle();
        assertLegendWhole();
        ui.screenshot(robot, "small-window-1016x668-legend");

        double span = t.getViewport().span();
        for (int i = 0; i < 20; i++) wheel(robot, t, -40, false);   // scroll down to the last lane
        ui.settle();
        assertEquals(span, t.getViewport().span(), "the wheel does not zoom");
        assertTrue(t.lanesOnScreen().contains(all.get(all.size() - 1)), "the last lane is reachable: " + t.lanesOnScreen());
        ui.screenshot(robot, "small-window-1024x700-scrolled");
        for (int i = 0; i < 20; i++) wheel(robot, t, 40, false);
        ui.settle();
        assertTrue(t.lanesOnScreen().contains(all.get(0)), "and back to the first: " + t.lanesOnScreen());

        wheel(robot, t, 120, true);
        ui.settle();
        assertNotEquals(span, t.getViewport().span(), "Ctrl+wheel zooms");

        // A click on a scrolled lane still hits the mark drawn there.
        for (int i = 0; i < 20; i++) wheel(robot, t, -40, false);
        ui.settle();
        robot.interact(t::fitAll);
        robot.type(KeyCode.END);
        ui.settle();
        double[] p = t.markPosition(doc.cursor());
        if (p != null) assertEquals(doc.cursor(), t.hitTest(p[0], p[1]), "hit-testing follows the scroll");
    }
}
