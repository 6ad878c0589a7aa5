package dev.weft.app.run;

import static dev.weft.app.FxTestSupport.waitUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.FxTestSupport;
import dev.weft.app.vm.Settings;
import dev.weft.testsupport.NativeBuild;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The run panel drives real weft runs: a two-node pingpong (examples/pingpong.c) through the panel writes a
 * recording that verifies and is handed to the main window to open; Stop ends a run that would never end, with
 * every process of it gone and the log finished by its end record. Runs need Linux and the shim-native build.
 */
@ExtendWith(ApplicationExtension.class)
class RunPanelUiTest {

    private RunPanel panel;
    private Scene scene;
    private final List<Path> opened = new CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) {
        panel = new RunPanel(new Settings(null), opened::add, true);
        scene = new Scene((Region) panel.node(), 1200, 780);
        stage.setScene(scene);
        stage.show();
    }

    @Test
    void aPingpongRunFromThePanelRecordsAndOpensItsLog(FxRobot robot, @TempDir Path dir) throws Exception {
        Path pingpong = NativeBuild.example("pingpong");
        Path log = dir.resolve("runs").resolve("pingpong-s7.weftlog");
        robot.interact(() -> panel.fill(new RunRequest(pingpong.toString(), "", "2", "latency=uniform:1000-60000", "7",
                "random", "", "30", log.toString(), "", false)));
        assertTrue(panel.canStart(), "the form is valid: " + panel.shownProblems());
        robot.clickOn("#startRun");
        waitUntil(() -> !panel.runningProperty().get() && panel.exitStatusProperty().get() >= 0, 90);
        assertEquals(0, panel.exitStatusProperty().get(), panel.weftOutput());
        assertEquals(List.of(log), opened, "the recording is handed to the main window once");
        LogTail.Counts c = panel.countsProperty().get();
        assertTrue(c.ended(), "the counters saw the end record");
        assertTrue(c.sends() >= 2 && c.delivered() >= 2, "a PING and a PONG went through: " + c);
        assertEquals(new LogTail(log).poll(), c, "the counters are the whole file's");
        assertTrue(panel.nodeOutput(0, false).contains("server got: PING:"), panel.nodeOutput(0, false));
        assertTrue(panel.nodeOutput(1, false).contains("PONG:"), panel.nodeOutput(1, false));
        assertTrue(panel.weftOutput().contains("recorded to " + log), panel.weftOutput());
        assertEquals(0, dev.weft.launcher.WeftCommand.REPLAY.run(new String[] {log.toString()},
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream())), "the recording replays identical");
        screenshot(robot, "run-panel-pingpong");
    }

    @Test
    void whereTheWorkbenchCanFollowARecordingTheRunIsHandedOverWhileItRuns(FxRobot robot, @TempDir Path dir) throws Exception {
        Path pingpong = NativeBuild.example("pingpong");
        Path log = dir.resolve("followed.weftlog");
        List<Path> followed = new CopyOnWriteArrayList<>();
        robot.interact(() -> {
            panel.setFollowRecording(followed::add);
            // a run that goes on until Stop (no deadlock verdict ends it: the client keeps resending lost PINGs)
            panel.fill(new RunRequest(pingpong.toString(), "", "2", "loss=1", "1", "random", "", "0", log.toString(),
                    "PINGPONG_TRIES=100000000", false));
        });
        robot.clickOn("#startRun");
        waitUntil(() -> !followed.isEmpty(), 60);
        assertTrue(panel.runningProperty().get(), "handed over while the run is still going");
        assertEquals(List.of(log), followed);
        robot.clickOn("#stopRun");
        waitUntil(() -> !panel.runningProperty().get(), 30);
        assertEquals(List.of(log), followed, "once");
        assertEquals(List.of(), opened, "a followed run is not opened a second time when it ends");
    }

    @Test
    void stopEndsARunThatWouldNeverEndAndFinishesItsLog(FxRobot robot, @TempDir Path dir) throws Exception {
        Path pingpong = NativeBuild.example("pingpong");
        Path log = dir.resolve("hang.weftlog");
        // Every datagram lost and a client that resends (almost) forever: the run never ends by itself, and it is
        // no deadlock either (the client keeps polling), so only Stop ends it (no watchdog).
        robot.interact(() -> panel.fill(new RunRequest(pingpong.toString(), "", "2", "loss=1", "1", "random", "", "0",
                log.toString(), "PINGPONG_TRIES=100000000", false)));
        robot.clickOn("#startRun");
        waitUntil(() -> panel.model().session() != null && panel.countsProperty().get().records() >= 3, 60);
        RunSession s = panel.model().session();
        List<ProcessHandle> tree = s.processTree();
        assertTrue(tree.size() >= 2, "weft run and its node: " + tree);
        // the run is alive and waiting, not ended: its client goes on resending, so the live counts grow further
        long[] seen = new long[1];
        robot.interact(() -> seen[0] = panel.countsProperty().get().records());
        waitUntil(() -> panel.countsProperty().get().records() > seen[0] + 2, 60);
        assertTrue(panel.runningProperty().get(), "the run is still waiting");
        robot.clickOn("#stopRun");
        waitUntil(() -> !panel.runningProperty().get(), 30);
        for (ProcessHandle p : tree) {
            p.onExit().get(5, TimeUnit.SECONDS);
            assertFalse(p.isAlive(), "still alive after stop: " + p.pid());
        }
        int status = panel.exitStatusProperty().get();
        assertTrue(status == 130 || status == 143, "stopped like Ctrl-C: " + status);
        assertTrue(panel.weftOutput().contains("interrupted; stopping every node"), "weft run's own lines: " + panel.weftOutput());
        LogTail.Counts c = new LogTail(log).poll();
        assertTrue(c.ended(), "the stopped run's log ends with its end record");
        assertEquals(List.of(log), opened);
        screenshot(robot, "run-panel-stopped");
    }

    @Test
    void aSingleProcessWithoutNetworkShowsItsOutputAndTheShimsStats(FxRobot robot) throws Exception {
        Path entropy = NativeBuild.example("entropy");
        robot.interact(() -> panel.fill(new RunRequest(entropy.toString(), "", "2", "", "9", "random", "", "30", "", "",
                true, false, false)));
        assertEquals(List.of("--seed", "9", "--strategy", "random", "--stats", "--", entropy.toString()), panel.request().args());
        robot.clickOn("#startRun");
        waitUntil(() -> !panel.runningProperty().get() && panel.exitStatusProperty().get() >= 0, 60);
        assertEquals(0, panel.exitStatusProperty().get(), panel.weftOutput());
        assertFalse(panel.nodeOutput(0, false).isBlank(), "the program's own output is in its tab");
        assertTrue(panel.nodeOutput(0, true).contains("[weft]"), "the shim's stats: " + panel.nodeOutput(0, true));
        assertEquals(List.of(), opened, "no recording without a network");
        String first = panel.nodeOutput(0, false);
        robot.clickOn("#startRun");
        waitUntil(() -> !panel.runningProperty().get() && panel.exitStatusProperty().get() >= 0, 60);
        assertEquals(first, panel.nodeOutput(0, false), "the same seed prints the same");
        screenshot(robot, "run-panel-single-process");
    }

    /** The scene bounds of every text field of the form, after a layout pass. */
    private java.util.Map<javafx.scene.Node, javafx.geometry.Bounds> fieldBounds(FxRobot robot) {
        java.util.Map<javafx.scene.Node, javafx.geometry.Bounds> out = new java.util.LinkedHashMap<>();
        robot.interact(() -> {
            Region root = (Region) panel.node();
            root.applyCss();
            root.layout();
            for (javafx.scene.Node n : root.lookupAll(".text-field")) out.put(n, n.localToScene(n.getLayoutBounds()));
        });
        return out;
    }

    @Test
    void anErrorAppearingMovesNoFieldUnderThePointer(FxRobot robot) {
        robot.interact(() -> panel.fill(new RunRequest("/bin/true", "a 'b c'", "3", "latency=uniform:1000-5000,loss=0.1",
                "0x2a", "rr", "", "30", "", "CHORD_FIX=1", false)));
        assertEquals(java.util.Map.of(), panel.shownProblems());
        var clean = fieldBounds(robot);
        assertTrue(clean.size() >= 5, "the form's fields: " + clean.size());
        robot.interact(() -> panel.fill(new RunRequest("/bin/true", "", "0", "latency=uniform:5-1", "x", "random", "",
                "30", "", "WEFT_SEED=3", false)));
        assertTrue(panel.shownProblems().size() >= 3, panel.shownProblems().toString());
        assertEquals(clean, fieldBounds(robot), "the inline errors keep their line: no field moved");
    }

    @Test
    void theFormChecksItselfWithTheLaunchersParsers(FxRobot robot) {
        robot.interact(() -> panel.fill(new RunRequest("/bin/true", "", "0", "latency=uniform:5-1", "x", "random", "",
                "30", "", "WEFT_SEED=3", false)));
        var p = panel.shownProblems();
        assertTrue(p.get(RunRequest.Field.NET).contains("latency"), p.toString());
        assertTrue(p.containsKey(RunRequest.Field.NODES), p.toString());
        assertTrue(p.get(RunRequest.Field.ENV).contains("WEFT_SEED is set by weft run"), p.toString());
        assertFalse(panel.canStart());
        robot.interact(() -> panel.fill(new RunRequest("/bin/true", "a 'b c'", "3", "latency=uniform:1000-5000,loss=0.1",
                "0x2a", "rr", "", "30", "", "CHORD_FIX=1", false)));
        assertEquals(java.util.Map.of(), panel.shownProblems());
        assertTrue(panel.canStart());
        assertEquals(List.of("--seed", "0x2a", "--strategy", "rr", "--net", "latency=uniform:1000-5000,loss=0.1", "--nodes",
                "3", "--watchdog", "30", "--", "/bin/true", "a", "b c"), panel.request().args());
        assertEquals("CHORD_FIX=1 weft run --seed 0x2a --strategy rr --net latency=uniform:1000-5000,loss=0.1 --nodes 3"
                + " --watchdog 30 -- /bin/true a 'b c'", panel.request().commandLine());
        screenshot(robot, "run-panel-form");
    }

    @Test
    void plusOneReadsTheSeedAsWeftRunDoesHexInEitherCase(FxRobot robot) {
        var seed = (javafx.scene.control.TextField) panel.node().lookup("#seed");
        var next = (javafx.scene.control.Button) panel.node().lookup("#nextSeed");
        for (String typed : List.of("0X2A", "0x2a", " 42 ", "+42")) {
            robot.interact(() -> {
                seed.setText(typed);
                next.fire();
            });
            assertEquals("43", seed.getText(), typed);
        }
    }

    @Test
    void aScenarioFileFromThePanelRunsItsOwnNodesWindowedAndRecords(FxRobot robot, @TempDir Path dir) throws Exception {
        Path pingpong = NativeBuild.example("pingpong");
        Path sc = dir.resolve("pp.json");
        Files.writeString(sc, """
                {"name": "pingpong from the panel", "seed": 44,
                 "nodes": [{"node_id": 0, "program": "%1$s", "args": []}, {"node_id": 1, "program": "%1$s", "args": []}],
                 "network": {"latency": "uniform:2000-10000"},
                 "events": []}
                """.formatted(pingpong));
        Path log = dir.resolve("scenario.weftlog");
        robot.interact(() -> panel.fill(new RunRequest("", "", "", "not a net spec", "", "random", "1000", "30",
                log.toString(), "", false, false, true, sc.toString())));
        assertEquals(java.util.Map.of(), panel.shownProblems(), "program, nodes, net and seed are the scenario's");
        assertTrue(panel.node().lookup("#nodes").isDisabled() && panel.node().lookup("#seed").isDisabled());
        assertEquals(List.of("--strategy", "random", "--record", log.toString(), "--watchdog", "30", "--window", "1000",
                sc.toString()), panel.request().args());
        robot.clickOn("#startRun");
        waitUntil(() -> !panel.runningProperty().get() && panel.exitStatusProperty().get() >= 0, 90);
        assertEquals(0, panel.exitStatusProperty().get(), panel.weftOutput());
        assertTrue(panel.nodeOutput(1, false).contains("PONG:"), panel.nodeOutput(1, false));
        assertTrue(new LogTail(log).poll().ended());
        assertEquals(List.of(log), opened);

        Files.writeString(sc, "{\"name\": \"broken\", \"seed\": 1, \"nodes\": []");
        robot.interact(() -> panel.fill(new RunRequest("", "", "", "", "", "random", "", "30", "", "", false, false, true,
                sc.toString())));
        String problem = panel.shownProblems().get(RunRequest.Field.SCENARIO);
        assertTrue(problem != null && problem.startsWith(sc + ": "), "the loader's error, under the field: " + panel.shownProblems());
        assertFalse(panel.canStart());
        robot.interact(() -> panel.fill(new RunRequest("", "", "", "", "", "random", "", "30", "", "", false, false, true,
                dir.resolve("missing.json").toString())));
        assertEquals(dir.resolve("missing.json") + ": no such file", panel.shownProblems().get(RunRequest.Field.SCENARIO));
        screenshot(robot, "run-panel-scenario-error");
    }

    @Test
    void elsewhereThanLinuxThePanelSaysRunsNeedLinuxAndOffersTheCommand(FxRobot robot) {
        RunPanel[] other = new RunPanel[1];
        robot.interact(() -> {
            other[0] = new RunPanel(new Settings(null), opened::add, false);
            other[0].fill(new RunRequest("./pingpong", "", "2", "", "5", "random", "", "30", "pp.weftlog", "", false));
        });
        javafx.scene.control.Label note = (javafx.scene.control.Label) other[0].node().lookup("#needsLinux");
        assertTrue(note != null && note.getText().startsWith("Runs need Linux"), "the panel says why");
        assertFalse(other[0].canStart(), "Start stays off");
        assertEquals("weft run --seed 5 --strategy random --net '' --nodes 2 --record pp.weftlog --watchdog 30 -- ./pingpong",
                ((javafx.scene.control.TextField) other[0].node().lookup("#commandLine")).getText());
    }

    private void screenshot(FxRobot robot, String name) {
        FxTestSupport.screenshot(robot, scene, name);
    }
}
