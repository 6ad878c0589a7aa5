package dev.weft.app.view;

import dev.weft.app.source.FakeRecordingSource;
import dev.weft.app.vm.DocumentViewModel;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole window over an in-memory recording: stepping, go to op, violations, filters. */
@ExtendWith(ApplicationExtension.class)
class WorkbenchFakeUiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.opening((file, progress) -> FakeRecordingSource.generated(11, 4, 3000));

    @Test
    void stepsGoesToOpJumpsToViolationsAndFiltersANodeAway(FxRobot robot) throws Exception {
        DocumentViewModel doc = ui.open(robot, Path.of("fake.weftlog"), null);
        assertTrue(doc.violations().size() > 2);
        assertEquals(doc.violations().get(0).op(), doc.cursor(), "opens at the first violation");
        ui.screenshot(robot, "fake-opened");

        int start = doc.cursor();
        robot.interact(() -> ui.window.documentPane().timeline().requestFocus());
        robot.type(KeyCode.RIGHT);
        ui.settle();
        assertEquals(start + 1, doc.cursor());
        robot.press(KeyCode.SHIFT).type(KeyCode.LEFT).release(KeyCode.SHIFT);
        ui.settle();
        assertEquals(Math.max(0, start - 9), doc.cursor());

        ui.goToByTyping(robot, doc, 1234);
        TableView<?> table = UiHarness.assertEventTableAt(robot, doc, 1234);
        assertEquals(1234, ui.window.documentPane().timeline().cursorOpProperty().get());

        robot.clickOn("#nextViolation");
        ui.settle();
        long next = doc.violations().stream().filter(v -> v.op() > 1234).findFirst().orElseThrow().op();
        assertEquals(next, doc.cursor());

        robot.interact(() -> ui.window.documentPane().filterBar().nodePicker().getCheckModel().clearCheck(1));
        ui.settle();
        assertTrue(ui.window.documentPane().timeline().getHiddenLanes().contains(1));
        var model = doc.source().timeline();
        for (int i = 0; i < table.getItems().size(); i++) {
            assertTrue(model.lane((Integer) table.getItems().get(i)) != 1, "node 1 is filtered out of the table");
        }
        robot.type(KeyCode.ESCAPE);
        ui.screenshot(robot, "fake-node1-hidden");
        TextField go = robot.lookup("#goToField").queryAs(TextField.class);
        assertEquals("1234", go.getText());

        // An op range hides the rest of the table and narrows the timeline to it.
        robot.clickOn("#opFrom").write("100").type(KeyCode.ENTER);
        robot.clickOn("#opTo").write("200").type(KeyCode.ENTER);
        ui.settle();
        for (int i = 0; i < table.getItems().size(); i++) {
            int op = (Integer) table.getItems().get(i);
            assertTrue(op >= 100 && op <= 200, "op " + op + " outside the range filter");
        }
        int[] vis = ui.window.documentPane().timeline().visibleOps();
        assertTrue(vis[0] >= 99 && vis[1] <= 202, "timeline narrowed to the range: " + vis[0] + ".." + vis[1]);

        // Virtual-time axis keeps the same events in view; dark theme repaints the timeline dark.
        var timeline = ui.window.documentPane().timeline();
        int[] before = timeline.visibleOps();
        robot.clickOn("#axisToggle");
        ui.settle();
        assertEquals(dev.weft.timeline.AxisMode.VIRTUAL_TIME, timeline.axisModeProperty().get());
        int[] after = timeline.visibleOps();
        assertTrue(after[0] <= before[0] + 5 && after[1] >= before[1] - 5, "same events in view after switching the axis");
        robot.clickOn("#themeToggle");
        ui.settle();
        assertEquals(dev.weft.timeline.TimelinePalette.DARK, timeline.paletteProperty().get());
        ui.screenshot(robot, "fake-dark-vt-axis");
    }
}
