package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.campaign.CampaignPanel;
import dev.weft.app.run.RunPanel;
import dev.weft.app.run.RunRequest;
import dev.weft.app.vm.OpenTabs;
import dev.weft.testsupport.NativeBuild;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Tools ▸ Run… from the main window's menu opens the run panel; a real pingpong run started there ends with its
 * recording open in a new tab of the main window, where it verifies and replays like any file. A campaign's kept
 * recording opens in another tab beside it.
 */
@ExtendWith(ApplicationExtension.class)
class ToolWindowsUiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    @Test
    void aRunFromTheToolsMenuOpensItsRecordingInATab(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.clickOn("Tools").clickOn("Run…");
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(showRun(robot).node().getScene().getWindow().isShowing(), "the run window is up");
        Path log = dir.resolve("pingpong-s3.weftlog");
        RunPanel run = startRun(robot, "pingpong", "", "2", "3", "30", log, "");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (ui.vm.document() == null || !ui.vm.document().path().equals(log)) {
            assertTrue(System.nanoTime() < end, "the recording did not open: " + run.weftOutput());
            Thread.sleep(50);
            WaitForAsyncUtils.waitForFxEvents();
        }
        ui.settle();
        assertEquals(0, run.exitStatusProperty().get());
        assertEquals(run.countsProperty().get().records(), ui.vm.document().size(), "the tab shows every record");
        assertEquals(1, ui.window.tabs().tabs().size());

        Path campaign = dev.weft.app.campaign.CampaignFixture.create(dir.resolve("campaign"));
        CampaignPanel[] shown = new CampaignPanel[1];
        robot.interact(() -> shown[0] = ui.window.toolWindows().showCampaign(campaign));
        CampaignPanel panel = shown[0];
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (panel.resultsProperty().get() == null) {
            assertTrue(System.nanoTime() < end, panel.summaryText());
            Thread.sleep(20);
            WaitForAsyncUtils.waitForFxEvents();
        }
        robot.interact(() -> panel.hitTable().getSelectionModel().select(0));
        robot.clickOn("#openCampaignRecording");
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ui.window.tabs().tabs().size() < 2) {
            assertTrue(System.nanoTime() < end, "the kept recording did not open");
            Thread.sleep(20);
            WaitForAsyncUtils.waitForFxEvents();
        }
        ui.settle();
        assertEquals(campaign.resolve("runs/CHORD_FIX=0/s1.weftlog"),
                ((OpenTabs.DocumentTab) ui.window.tabs().selectedProperty().get()).document().path());
        ui.screenshot(robot, "tools-run-then-campaign-tabs");
    }

    /**
     * The acceptance's live run: a 7-node Chord run (chord_node with more ticks than the test waits for) started from
     * the run panel is followed in the main window while it runs — its timeline grows between two looks — then Stop
     * ends it like Ctrl-C, the followed tab ends with every record of the finished log, and that log replays identical.
     */
    @Test
    void aSevenNodeChordRunIsFollowedLiveThenStoppedAndReplaysIdentical(FxRobot robot, @TempDir Path dir) throws Exception {
        long t0 = System.nanoTime();
        Path log = dir.resolve("chord-s5.weftlog");
        RunPanel run = startRun(robot, "chord_node", "6 100000 3", "7", "5", "60", log, "CHORD_NNODES=7 CHORD_FIX=1");

        // the run is handed to the main window, which follows the growing file in a tab
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int first = followedOps(robot);
        while (first < 50) {
            assertTrue(System.nanoTime() < end && run.runningProperty().get(), "not followed: " + run.weftOutput());
            Thread.sleep(50);
            first = followedOps(robot);
        }
        int second = first;
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (second <= first) {
            assertTrue(System.nanoTime() < end, "the followed timeline stayed at " + first + " ops");
            Thread.sleep(50);
            second = followedOps(robot);
        }
        assertTrue(run.runningProperty().get(), "both looks were taken while the run was going: " + first + " then " + second);

        robot.interact(run::stop);
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (run.runningProperty().get()) {
            assertTrue(System.nanoTime() < end, "Stop did not end the run");
            Thread.sleep(50);
            WaitForAsyncUtils.waitForFxEvents();
        }
        int status = run.exitStatusProperty().get();
        assertTrue(status == 130 || status == 143, "stopped like Ctrl-C: " + status + "\n" + run.weftOutput());
        dev.weft.app.run.LogTail.Counts c = new dev.weft.app.run.LogTail(log).poll();
        assertTrue(c.ended(), "the stopped run's log ends with its end record");
        end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (followedOps(robot) != c.records()) {
            assertTrue(System.nanoTime() < end, "the followed tab has " + followedOps(robot) + " of " + c.records() + " records");
            Thread.sleep(50);
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int replay = dev.weft.launcher.WeftCommand.REPLAY.run(new String[] {log.toString()},
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
        assertEquals(0, replay, out.toString(java.nio.charset.StandardCharsets.UTF_8));
        assertTrue(out.toString(java.nio.charset.StandardCharsets.UTF_8).contains("replay identical"), out.toString());
        System.out.printf("7-node Chord from the run panel: followed %d then %d ops, stopped at %d records, %.1f s%n",
                first, second, c.records(), (System.nanoTime() - t0) / 1e9);
        ui.screenshot(robot, "tools-chord-followed-then-stopped");
    }

    /** The run window, opened from the main window (or brought to the front: there is one). */
    private RunPanel showRun(FxRobot robot) {
        RunPanel[] run = new RunPanel[1];
        robot.interact(() -> run[0] = ui.window.toolWindows().showRun());
        return run[0];
    }

    /**
     * Fills the run window with {@code nodes} nodes of a built example on a network of 1-60 us latency and starts
     * it, recording to {@code log}; skips the test where the example cannot run.
     */
    private RunPanel startRun(FxRobot robot, String example, String args, String nodes, String seed, String watchdog,
            Path log, String env) {
        Path program = NativeBuild.example(example);
        RunPanel run = showRun(robot);
        robot.interact(() -> run.fill(new RunRequest(program.toString(), args, nodes, "latency=uniform:1000-60000", seed,
                "random", "", watchdog, log.toString(), env, false)));
        robot.interact(run::start);
        return run;
    }

    /** The ops in the followed tab's timeline (0 until the main window follows something and has shown it). */
    private int followedOps(FxRobot robot) {
        int[] n = new int[1];
        robot.interact(() -> {
            var f = ui.vm.followProperty().get();
            n[0] = f == null || f.document() == null ? 0 : f.document().size();
        });
        return n[0];
    }
}
