package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.vm.CompareViewModel;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.OpenTabs;
import dev.weft.launcher.run.RunInChildJvm;
import dev.weft.launcher.run.RunRecipe;
import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.SendOutcome;
import dev.weft.testsupport.NativeBuild;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuItem;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * What if? end to end (issue 25 item 5): a windowed pingpong recording made by {@code weft run --record}, its PONG
 * dropped through the event menu's "Re-run with this datagram dropped", re-run live; the comparison tab that opens
 * puts the first node-visible divergence at that datagram's receiver (the client, which never sees the PONG and
 * sends its PING again), on the op where the original delivered it. Needs Linux and the shim-native build.
 */
@ExtendWith(ApplicationExtension.class)
class WhatIfUiTest {

    @TempDir
    Path dir;

    private UiHarness ui;

    @Start
    void start(Stage stage) {
        ui = new UiHarness(stage, IndexedRecordingSource::open);
    }

    /** weft run --window --record in a child JVM, as from a shell in dir. */
    private Path record(Path pingpong, String... env) throws Exception {
        Path log = dir.resolve("pp-s7.weftlog");
        List<String> args = new java.util.ArrayList<>(List.of("--seed", "7", "--net", "latency=uniform:1000-60000",
                "--window", "1000", "--nodes", "2", "--watchdog", "60", "--record", log.getFileName().toString()));
        for (String e : env) args.addAll(List.of("--env", e));
        args.addAll(List.of("--", pingpong.toString()));
        Process p = RunInChildJvm.start(args, System.getenv(), dir);
        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "weft run ended");
        assertEquals(0, p.exitValue(), err);
        return log;
    }

    /** Fires What if? ▸ dropped on op through the event table's menu. */
    private void dropThroughTheMenu(FxRobot robot, DocumentViewModel doc, int op) throws Exception {
        robot.interact(() -> doc.selectionProperty().set(op));
        ui.settle();
        ContextMenu menu = robot.lookup("#eventTable").queryAs(javafx.scene.control.Control.class).getContextMenu();
        robot.interact(() -> menu.show(ui.scene.getWindow()));
        Menu whatIf = (Menu) menu.getItems().stream().filter(i -> "whatIfMenu".equals(i.getId())).findFirst().orElseThrow();
        MenuItem drop = whatIf.getItems().stream().filter(i -> i.getText().contains("dropped")).findFirst().orElseThrow();
        assertFalse(drop.isDisable(), whatIf.getItems().get(3).getText());
        robot.interact(() -> {
            drop.fire();
            menu.hide();
        });
    }

    @Test
    void cancelStopsAReRunThatWouldNotEndAndComparesNothing(FxRobot robot) throws Exception {
        Path pingpong = NativeBuild.example("pingpong");
        // without its PONG the client polls and resends (almost) for ever: only Cancel ends the re-run
        Path log = record(pingpong, "PINGPONG_TRIES=1000000", "PINGPONG_WAIT=1000000");
        DocumentViewModel doc = ui.open(robot, log, null);
        int pongSend = -1;
        for (int op = 0; op < doc.size(); op++) {
            if (doc.source().record(op).event() instanceof Event.Send s && s.src().port() == 4000) pongSend = op;
        }
        var whatIf = ui.window.documentPane().whatIf();
        dropThroughTheMenu(robot, doc, pongSend);
        dev.weft.app.FxTestSupport.waitUntil(() -> whatIf.statusProperty().get().matches(".*re-running… [1-9][0-9]* records"), 120);
        assertTrue(whatIf.runningProperty().get());
        robot.clickOn("#whatIfCancel");
        dev.weft.app.FxTestSupport.waitUntil(() -> !whatIf.runningProperty().get(), 60);
        assertTrue(whatIf.statusProperty().get().contains("cancelled (pp-s7.whatif-1.weftlog is cut short)"),
                whatIf.statusProperty().get());
        assertTrue(ui.window.tabs().tabs().stream().noneMatch(t -> t instanceof OpenTabs.CompareTab), "nothing compared");
        assertEquals(0, ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count(), "the re-run is gone");
    }

    @Test
    void droppingThePongThroughTheMenuRerunsAndComparesAtItsReceiver(FxRobot robot) throws Exception {
        Path pingpong = NativeBuild.example("pingpong");
        Path log = record(pingpong);
        RunRecipe recipe = RunRecipe.readBeside(log);
        assertNotNull(recipe, "weft run --record wrote how it was made beside the recording");
        assertEquals(dir.toAbsolutePath(), recipe.cwd());
        assertFalse(recipe.args().contains("--record"), "the recipe leaves the output to the re-run: " + recipe.args());
        byte[] originalBytes = Files.readAllBytes(log);

        // the PONG: node 0's send to node 1, delivered; and the op where node 1 received it
        long pongSend = -1, pongDeliver = -1;
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                if (rec.event() instanceof Event.Send s && s.src().port() == 4000 && s.outcome() instanceof SendOutcome.Enqueued) {
                    pongSend = rec.op();
                }
            }
        }
        assertTrue(pongSend >= 0, "the server sent its PONG");

        DocumentViewModel doc = ui.open(robot, log, null);
        pongDeliver = doc.timeline().partner((int) pongSend);
        assertTrue(pongDeliver > pongSend, "the PONG was delivered");
        int deliverOp = (int) pongDeliver;
        robot.interact(() -> doc.selectionProperty().set(deliverOp));
        var whatIfModel = ui.window.documentPane().whatIf();
        ui.settle();

        // right-click menu of the event table, on the PONG's delivery: What if? ▸ dropped
        ContextMenu menu = robot.lookup("#eventTable").queryAs(javafx.scene.control.Control.class).getContextMenu();
        robot.interact(() -> menu.show(ui.scene.getWindow()));
        Menu whatIf = (Menu) menu.getItems().stream().filter(i -> "whatIfMenu".equals(i.getId())).findFirst().orElseThrow();
        MenuItem drop = whatIf.getItems().stream().filter(i -> i.getText().contains("dropped")).findFirst().orElseThrow();
        assertFalse(drop.isDisable(), "offered on a windowed recording made by weft run: " + whatIf.getItems().get(3).getText());
        assertTrue(whatIf.getItems().get(3).getText().contains("127.0.0.1:4000 → 127.0.0.2:4001"), whatIf.getItems().get(3).getText());
        robot.interact(() -> {
            drop.fire();
            menu.hide();
        });

        // the re-run happens off the UI thread; a compare tab opens when its recording is written
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        CompareViewModel compare = null;
        while (System.nanoTime() < deadline) {
            WaitForAsyncUtils.waitForFxEvents();
            OpenTabs.Tab t = ui.window.tabs().selectedProperty().get();
            if (t instanceof OpenTabs.CompareTab c && c.compare().doneProperty().get()) {
                compare = c.compare();
                break;
            }
            Thread.sleep(200);
        }
        assertNotNull(compare, "a comparison opened; what-if status: " + whatIfModel.statusProperty().get());
        ui.settle();
        Path rerun = dir.resolve("pp-s7.whatif-1.weftlog");
        assertEquals(rerun, compare.b().path(), "the new recording, under a new name");
        assertTrue(Files.isRegularFile(dir.resolve("pp-s7.whatif-1.plan-edit.json")), "the edited plan, under a new name");
        String edited = Files.readString(dir.resolve("pp-s7.whatif-1.plan-edit.json"));
        assertTrue(edited.contains("{\"src\":\"127.0.0.1:4000\",\"dst\":\"127.0.0.2:4001\",\"chan_seq\":0,\"drop\":true}"), edited);
        assertTrue(java.util.Arrays.equals(originalBytes, Files.readAllBytes(log)), "the original recording is untouched");

        // the first node-visible divergence: node 1 (the PONG's receiver), at the op where A delivered the PONG
        assertEquals(1, compare.resultProperty().get().firstEffect().node(), compare.headlineProperty().get());
        assertEquals(pongDeliver, compare.effectOpAProperty().get(), compare.headlineProperty().get());
        assertEquals(pongDeliver, compare.a().cursor(), "A's cursor is on the divergence");
        WaitForAsyncUtils.waitForFxEvents();
        ui.screenshot(robot, "what-if-compare");
    }
}
