package dev.weft.timeline;

import dev.weft.testsupport.SyntheticRun;
import javafx.geometry.Point2D;
import javafx.scene.Scene;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Drives the real control headless: paint, zoom, pan, click a send and jump to its receive and back. */
@ExtendWith(ApplicationExtension.class)
class TimelineViewUiTest {

    private TimelineView view;
    private TimelineModel model;

    @Start
    void start(Stage stage) {
        model = TimelineModel.of(SyntheticRun.generate(2, 3, 3000));
        view = new TimelineView();
        view.setModel(model);
        stage.setScene(new Scene(view, 1000, 320));
        stage.show();
    }

    @Test
    void paintsZoomsPansAndJumpsBetweenPartners(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.frameCount() > 0, "painted at least once");
        robot.interact(() -> Screenshots.save(view, "timeline-fit-all"));

        // Ctrl+wheel zooms (direction differs between Monocle and real displays, so only the change is asserted);
        // the plain wheel scrolls lanes, or pans when they fit, and never zooms.
        double span0 = view.getViewport().span();
        robot.moveTo(view).scroll(3);
        WaitForAsyncUtils.waitForFxEvents();
        org.junit.jupiter.api.Assertions.assertEquals(span0, view.getViewport().span(), 1e-9);
        robot.press(javafx.scene.input.KeyCode.CONTROL).scroll(3);
        robot.release(javafx.scene.input.KeyCode.CONTROL);
        WaitForAsyncUtils.waitForFxEvents();
        assertNotEquals(span0, view.getViewport().span(), 1e-9);

        // A send with a receive: show its neighbourhood, click it, click it again to jump, then back.
        int send = -1;
        for (int op = 20; op < model.size() && send < 0; op++) {
            if (model.kind(op) == MarkKind.SEND && model.partner(op) > op && model.partner(op) - op < 30) send = op;
        }
        int recv = model.partner(send);
        int from = send - 10;
        robot.interact(() -> view.showOps(from, from + 60));
        WaitForAsyncUtils.waitForFxEvents();
        long before = view.frameCount();
        robot.interact(() -> { view.cursorOpProperty().set(from + 5); view.selectedOpProperty().set(-1); view.zoomIn(); view.zoomOut(); });
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.frameCount() - before <= 2, "several changes in one pulse repaint once");

        clickMark(robot, send);
        assertEquals(send, view.selectedOpProperty().get());
        clickMark(robot, send);
        assertEquals(recv, view.selectedOpProperty().get(), "second click on the selected send jumps to its receive");
        robot.interact(() -> Screenshots.save(view, "timeline-partner-selected"));
        clickMark(robot, recv);
        assertEquals(send, view.selectedOpProperty().get(), "and back");

        // Drag pans: content moves right, so the window start moves left.
        robot.interact(() -> view.showOps(1000, 1100));
        double start = view.getViewport().start();
        Point2D p = view.localToScreen(500, 120);
        robot.moveTo(p).press(MouseButton.PRIMARY).moveBy(150, 0).release(MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.getViewport().start() < start, "drag right reveals earlier ops");

        // Fully zoomed out with the aggregated columns, dark palette.
        robot.interact(() -> { view.fitAll(); view.paletteProperty().set(TimelinePalette.DARK); });
        WaitForAsyncUtils.waitForFxEvents();
        robot.interact(() -> Screenshots.save(view, "timeline-dark-fit"));
    }

    private void clickMark(FxRobot robot, int op) {
        WaitForAsyncUtils.waitForFxEvents();
        double[] pos = view.markPosition(op);
        assertNotNull(pos, "op " + op + " is visible");
        robot.clickOn(view.localToScreen(pos[0], pos[1]), MouseButton.PRIMARY);
        WaitForAsyncUtils.waitForFxEvents();
    }
}
