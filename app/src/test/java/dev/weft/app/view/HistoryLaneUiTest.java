package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.launcher.run.RunCommand;
import dev.weft.testsupport.CapturedRun;
import dev.weft.testsupport.NativeBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * Study A in the workbench (docs/history.md): kvreplica recorded at seed 0 opens with a History tab beside the
 * recording's own tabs; it shows the stale read as a finding, and choosing the finding puts the cursor on the
 * recording's op where the stale read was invoked. Needs Linux and the shim-native build.
 */
@ExtendWith(ApplicationExtension.class)
class HistoryLaneUiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    @Test
    void theStaleReadIsAFindingLinkedToItsOp(FxRobot robot, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("kv.weftlog");
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("WEFT_") || k.equals("LD_PRELOAD"));
        CapturedRun run = CapturedRun.of((o, e) -> RunCommand.run(List.of("--shim", NativeBuild.shim().toString(),
                "--seed", "0", "--net", "latency=uniform:1000-50000", "--record", log.toString(), "--",
                NativeBuild.example("kvreplica").toString()).toArray(String[]::new), env, o, e));
        assertEquals(1, run.code(), "kvreplica seed 0 reads stale: " + run.err());
        assertTrue(Files.isRegularFile(dir.resolve("kv.history.jsonl")), run.err());

        DocumentViewModel doc = ui.open(robot, log, null);
        robot.clickOn("History");
        ui.settle();
        Label verdict = robot.lookup("#historyVerdict").queryAs(Label.class);
        assertEquals("kv.history.jsonl · model cas-register · VIOLATION — 1 object not linearizable", verdict.getText());
        ListView<?> findings = robot.lookup("#historyFindings").queryAs(ListView.class);
        assertEquals(1, findings.getItems().size());
        robot.interact(() -> findings.getSelectionModel().select(0));
        ui.settle();
        // the read was invoked at t=25000 ns: the cursor is on the first op at or after that virtual time
        int expected = doc.timeline().firstOpNotBeforeVt(25000);
        assertEquals(expected, doc.cursor());
        assertTrue(doc.timeline().vt(doc.cursor()) >= 25000);
        ui.screenshot(robot, "history-lane-kvreplica-stale-read");
    }
}
