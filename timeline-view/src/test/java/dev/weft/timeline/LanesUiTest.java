package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.testsupport.SyntheticRun;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lanes as in Perfetto: pinned to the top while the others scroll, collapsed to a strip; zoomed out, a density strip. */
@ExtendWith(ApplicationExtension.class)
class LanesUiTest {

    private TimelineView view;

    @Start
    void start(Stage stage) {
        view = new TimelineView();
        view.setModel(TimelineModel.of(SyntheticRun.generate(3, 12, 3000)));
        stage.setScene(new Scene(view, 1000, 330));
        stage.show();
    }

    private String label(int lane) {
        return view.getModel().lanes().get(lane).label();
    }

    @Test
    void aPinnedLaneStaysOnTopWhileTheOthersScrollAndAClickedLabelCollapses(FxRobot robot) {
        WaitForAsyncUtils.waitForFxEvents();
        int last = view.getModel().laneCount() - 1;
        assertFalse(view.lanesFit(), "twelve lanes in 330 px scroll");
        assertFalse(view.lanesOnScreen().contains(label(last)));

        // Pin the last lane from its label's menu.
        robot.interact(() -> view.scrollLanes(10_000));
        double[] y = {0};
        robot.interact(() -> {
            for (double yy = TimelineRenderer.RULER; yy < 300; yy++) if (view.laneAt(yy) == last) { y[0] = yy + 5; break; }
        });
        assertTrue(y[0] > 0, "the last lane is on screen once scrolled down");
        robot.moveTo(view).moveBy(20 - view.getWidth() / 2, y[0] - view.getHeight() / 2).clickOn(MouseButton.SECONDARY);
        WaitForAsyncUtils.waitForFxEvents();
        robot.clickOn("Pin lane to top");
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(view.getPinnedLanes().contains(last));
        robot.interact(() -> view.scrollLanes(-10_000));
        assertEquals(label(last), view.lanesOnScreen().get(0), "pinned: first, scrolled to the top");
        assertEquals(label(0), view.lanesOnScreen().get(1));
        robot.interact(() -> view.scrollLanes(10_000));
        assertEquals(label(last), view.lanesOnScreen().get(0), "pinned: still first, scrolled to the bottom");
        assertFalse(view.lanesOnScreen().contains(label(0)), "lane 0 scrolled away under the pinned lane");
        robot.interact(() -> Screenshots.save(view, "lanes-pinned"));

        // Collapse lanes 0..3 with a click on each label: thin strips, so more lanes fit.
        robot.interact(() -> view.scrollLanes(-10_000));
        int before = view.lanesOnScreen().size();
        for (int lane = 0; lane < 4; lane++) {
            double[] at = {0};
            int l = lane;
            robot.interact(() -> {
                for (double yy = TimelineRenderer.RULER; yy < 300; yy++) if (view.laneAt(yy) == l) { at[0] = yy + 1; break; }
            });
            robot.moveTo(view).moveBy(20 - view.getWidth() / 2, at[0] - view.getHeight() / 2).clickOn(MouseButton.PRIMARY);
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertEquals(java.util.Set.of(0, 1, 2, 3), view.getCollapsedLanes());
        assertTrue(view.lanesOnScreen().size() > before, view.lanesOnScreen() + " vs " + before + " before");
        robot.interact(() -> Screenshots.save(view, "lanes-collapsed"));
    }

    @Test
    void zoomedOutALaneIsADensityStripTallerWhereItIsBusier(FxRobot robot) {
        // Node 0 does everything in the first half and one op in ten in the second: its strip must be lower there.
        List<LogRecord> recs = new ArrayList<>();
        recs.add(new LogRecord(0, 0, new Event.Connect(1), 0, 0));
        recs.add(new LogRecord(1, 0, new Event.Hello(1, 0), 0, 0));
        recs.add(new LogRecord(2, 0, new Event.Connect(2), 0, 0));
        recs.add(new LogRecord(3, 0, new Event.Hello(2, 1), 0, 0));
        for (int i = 0; i < 40_000; i++) {
            long conn = i < 20_000 || i % 10 == 0 ? 1 : 2;
            dev.weft.log.VAddr a = dev.weft.log.VAddr.ofNode(conn - 1, 1), b = dev.weft.log.VAddr.ofNode(2 - conn, 1);
            recs.add(new LogRecord(recs.size(), i, new Event.Send(conn, a, b, i, i, "61",
                    new dev.weft.log.SendOutcome.Enqueued(3 - conn, i + 1000, i)), 0, 0));
        }
        robot.interact(() -> {
            view.setModel(TimelineModel.of(recs));
            view.fitAll();
        });
        WaitForAsyncUtils.waitForFxEvents();
        WritableImage[] img = new WritableImage[1];
        robot.interact(() -> {
            view.paintNow();
            img[0] = view.snapshot(null, null);
            Screenshots.save(view, "lanes-density");
        });
        double[] lane0 = view.markPosition(10);   // a node-0 op: its lane's centre
        int busyX = (int) (TimelineRenderer.GUTTER + 200), quietX = (int) (TimelineRenderer.GUTTER + 700);
        int busy = inked(img[0], busyX, lane0[1]), quiet = inked(img[0], quietX, lane0[1]);
        assertTrue(busy > quiet && quiet > 0, "strip height busy " + busy + " px vs quiet " + quiet + " px");
    }

    /** Pixels of a column around y (one lane's height) that are not the background or the lane stripe. */
    private int inked(WritableImage img, int x, double centre) {
        int n = 0;
        for (int y = (int) centre - 25; y < centre + 25; y++) {
            javafx.scene.paint.Color c = img.getPixelReader().getColor(x, y);
            if (c.getSaturation() > 0.3) n++;
        }
        return n;
    }
}
