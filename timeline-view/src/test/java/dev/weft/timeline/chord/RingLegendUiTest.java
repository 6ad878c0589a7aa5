package dev.weft.timeline.chord;

import javafx.scene.text.Font;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ring view's key is never cut at the right: a narrow view (the side pane at 1024 px) wraps it item by item. */
@ExtendWith(ApplicationExtension.class)
class RingLegendUiTest {

    @Start
    void start(Stage stage) {
        stage.show();
    }

    @Test
    void theKeyWrapsToTheWidthAndKeepsEveryItem(FxRobot robot) throws Exception {
        robot.interact(() -> {
            List<String> wide = ChordRingView.keyRows(1200);
            assertEquals(1, wide.size(), wide.toString());
            for (double w : new double[] {450, 300, 200}) {
                List<String> rows = ChordRingView.keyRows(w);
                assertTrue(rows.size() > 1, w + " px: " + rows);
                assertEquals(wide.get(0), String.join("   ", rows), "every item, in order");
                for (String row : rows) {
                    Text t = new Text(row);
                    t.setFont(Font.font("System", 11));
                    boolean oneItem = !row.contains("   ");
                    assertTrue(oneItem || t.getLayoutBounds().getWidth() <= w - 16, w + " px: \"" + row + "\" fits");
                }
            }
        });
    }
}
