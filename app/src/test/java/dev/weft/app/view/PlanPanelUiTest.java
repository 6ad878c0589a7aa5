package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.PlanViewModel;
import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.net.FaultPlan;
import dev.weft.testcorpus.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/** The Plan tab (issue 25 item 4): a shrink output folder's plan listed with its ops, rows jumping, ruler markers. */
@ExtendWith(ApplicationExtension.class)
class PlanPanelUiTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    /** The op of the send of datagram id, found by reading the log here (not by the code under test). */
    private static long sendOp(Path log, FaultPlan.DatagramId id) throws Exception {
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                if (rec.event() instanceof Event.Send s && s.src().equals(id.src()) && s.dst().equals(id.dst())
                        && s.chanSeq() == id.chanSeq()) {
                    return rec.op();
                }
            }
        }
        return -1;
    }

    @Test
    void aShrinkFolderOpensWithItsDeviationsListedMarkedAndEachRowJumpsToItsSend(FxRobot robot) throws Exception {
        Path corpus = SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog");
        Path folder = dir.resolve("shrunk");
        List<FaultPlan.Deviation> plan = PlanFixtures.shrinkFolder(corpus, folder, 3);
        assertEquals(3, plan.size());
        Path log = folder.resolve("minimal.weftlog");
        DocumentViewModel doc = ui.open(robot, log, null);
        ui.settle();

        TableView<PlanViewModel.Row> table = ui.window.documentPane().planTable();
        assertNotNull(table, "a recording with plan.json beside minimal.weftlog gets the Plan tab");
        assertEquals("Plan", ui.window.documentPane().tabs().getSelectionModel().getSelectedItem().getText(), "shown first");
        assertEquals(3, table.getItems().size(), robot.lookup("#planSummary").queryLabeled().getText());
        long[] sends = new long[3];
        for (int i = 0; i < 3; i++) {
            FaultPlan.Deviation d = plan.get(i);
            PlanViewModel.Row row = table.getItems().get(i);
            sends[i] = sendOp(log, d.id());
            assertTrue(sends[i] >= 0, "the recording sent " + d.id());
            assertEquals(d.fate().dropped() ? "drop" : "delay", row.kind());
            assertEquals(d.id().src().text() + " → " + d.id().dst().text(), row.channel());
            assertEquals(Long.toUnsignedString(d.id().chanSeq()), row.seq());
            assertEquals("op " + sends[i], row.sentAt());
            int partner = doc.timeline().partner((int) sends[i]);
            assertEquals(d.fate().dropped() ? "—" : "op " + partner, row.deliveredAt(), "delivered where its arrow ends");
            assertTrue(d.fate().dropped() ? row.fate().equals("dropped") : row.fate().startsWith("after "), row.fate());
        }
        String summary = robot.lookup("#planSummary").queryLabeled().getText();
        assertTrue(summary.startsWith("plan.json: 3 deviations from the baseline"), summary);

        int[] marks = ui.window.timeline().planMarksProperty().get();
        assertArrayEquals(java.util.Arrays.stream(sends).mapToInt(x -> (int) x).sorted().distinct().toArray(), marks,
                "one ruler marker per deviation, at its send");
        assertTrue(robot.lookup("#timelineLegend").queryAs(javafx.scene.Parent.class).getChildrenUnmodifiable().stream()
                .anyMatch(n -> n instanceof javafx.scene.control.Label l && l.getText().startsWith("fault-plan deviation")),
                "the legend names the plan marker");

        for (int i : new int[] {2, 0}) {
            int row = i;
            robot.interact(() -> table.getSelectionModel().select(row));
            ui.settle();
            assertEquals(sends[i], doc.cursor(), "row " + i + " jumps to its send");
        }
        ui.screenshot(robot, "plan-panel");
    }

    @Test
    void aRecordingWithoutAPlanHasNoPlanTabAndAnUnreadablePlanSaysWhyInOneLine(FxRobot robot) throws Exception {
        Path corpus = SharedCorpus.conformance().resolve("pingpong/pp-loss0.1-s4.weftlog");
        Path plain = dir.resolve("plain.weftlog");
        Files.copy(corpus, plain);
        ui.open(robot, plain, null);
        assertNull(ui.window.documentPane().planTable(), "no plan beside it, no Plan tab");
        // What if? is not offered on a recording of the single-host broker, and the menu says why
        var whatIf = ui.window.documentPane().whatIf();
        assertEquals(System.getProperty("os.name").startsWith("Linux")
                ? "only a windowed recording (--window) re-runs the same" : "re-runs are live: Linux only", whatIf.unavailable(6));
        assertTrue(ui.window.timeline().planMarksProperty().get().length == 0);

        Path bad = dir.resolve("bad.weftlog");
        Files.copy(corpus, bad);
        Files.writeString(dir.resolve("bad.weftlog.plan.json"), "{\"format\":\"weft-plan\",\"version\":9,\"net\":\"\"}");
        ui.open(robot, bad, null);
        ui.settle();
        String summary = robot.lookup("#planSummary").queryLabeled().getText();
        assertEquals("✗ " + dir.resolve("bad.weftlog.plan.json") + ": member version: 9 is not supported (this build reads 1 and 2)", summary);
        assertEquals(0, ui.window.documentPane().planTable().getItems().size());
    }
}
