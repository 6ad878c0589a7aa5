package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.FxTestSupport;
import dev.weft.app.shrink.ShrinkPanel;
import dev.weft.app.shrink.ShrinkRequest;
import dev.weft.app.shrink.ShrinkSession;
import dev.weft.testcorpus.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Tools ▸ Shrink… with a fake {@code weft} (a script that prints weft shrink's progress lines and writes its output
 * folder), so the dialog is tested without the shrink command itself: the arguments it passes, the progress it shows,
 * the minimal recording opened with its Plan tab when done, Cancel ending the process, and a used folder refused.
 */
@ExtendWith(ApplicationExtension.class)
class ShrinkUiTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    @AfterEach
    void forgetFake() {
        System.clearProperty(ShrinkSession.COMMAND_PROPERTY);
    }

    /** A fake weft: records its arguments, prints progress on stderr, then runs tail (the rest of the script). */
    private Path fakeWeft(String tail) throws Exception {
        Path script = dir.resolve("fake-weft");
        Files.writeString(script, String.join("\n",
                "#!/bin/sh",
                "printf '%s\\n' \"$@\" > '" + dir.resolve("args.txt") + "'",
                "while [ $# -gt 0 ]; do [ \"$1\" = --out ] && out=\"$2\"; shift; done",
                "echo 'shrink: run 1, 12 deviation(s) of 12' >&2",
                "echo 'shrink: run 2, 6 deviation(s) of 12' >&2",
                "echo 'shrink: run 3, 3 deviation(s) of 12' >&2",
                tail, ""));
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        System.setProperty(ShrinkSession.COMMAND_PROPERTY, script.toString());
        return script;
    }

    private ShrinkPanel open(FxRobot robot) {
        ShrinkPanel[] p = new ShrinkPanel[1];
        robot.interact(() -> p[0] = ui.window.toolWindows().showShrink());
        return p[0];
    }

    @Test
    void aShrinkRunsWithTheFormsArgumentsShowsProgressAndOpensTheMinimalRecordingWithItsPlan(FxRobot robot) throws Exception {
        Path prepared = dir.resolve("prepared");
        PlanFixtures.shrinkFolder(SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog"), prepared, 3);
        fakeWeft(String.join("\n",
                "mkdir -p \"$out\"",
                "cp '" + prepared.resolve("minimal.weftlog") + "' '" + prepared.resolve("plan.json") + "' \"$out\"/",
                "echo 'shrunk: 3 deviations' > \"$out\"/report.txt"));
        Path config = dir.resolve("campaign.json");
        Files.writeString(config, "{}");
        Path out = dir.resolve("out");
        ShrinkPanel panel = open(robot);
        robot.interact(() -> panel.fill(new ShrinkRequest(config.toString(), "3", "CHORD_FIX=0 NODES=7", "2", out.toString())));
        assertFalse(panel.startDisabled(), "a valid form can start");
        robot.clickOn("#shrinkStart");
        FxTestSupport.waitUntil(() -> !panel.running(), 60);
        ui.settle();

        assertEquals(List.of("shrink", "--config", config.toString(), "--seed", "3", "--cell", "CHORD_FIX=0", "--cell", "NODES=7",
                "--jobs", "2", "--out", out.toString()), Files.readAllLines(dir.resolve("args.txt")));
        assertEquals("done: " + out.resolve("minimal.weftlog").toAbsolutePath() + " (exit 0)", panel.stateText());
        assertEquals(1.0, panel.progress());
        assertTrue(panel.linesText().contains("shrink: run 3, 3 deviation(s) of 12"), panel.linesText());
        assertNotNull(ui.vm.document(), "the minimal recording opened");
        assertEquals(out.resolve("minimal.weftlog").toAbsolutePath(), ui.vm.document().path().toAbsolutePath());
        assertEquals(3, ui.window.documentPane().planTable().getItems().size(), "with its plan's deviations listed");
        WaitForAsyncUtils.waitForFxEvents();
        FxTestSupport.screenshot(robot, ui.window.toolWindows().window("shrink").getScene(), "shrink-dialog-done");
        ui.screenshot(robot, "shrink-plan-panel");

        // the same folder again: refused, nothing overwritten
        robot.interact(() -> panel.fill(new ShrinkRequest(config.toString(), "3", "", "", out.toString())));
        assertTrue(panel.startDisabled(), "a folder holding a shrink's files is not offered");
        assertTrue(robot.lookup("#shrinkProblemOUT").queryLabeled().getText().contains("exists: choose a new folder"));
    }

    @Test
    void cancelEndsTheShrinkProcessAndOpensNothing(FxRobot robot) throws Exception {
        Path started = dir.resolve("started");
        // progress, then wait for ever (until cancelled)
        fakeWeft("touch '" + started + "'\nexec sleep 600");
        Path config = dir.resolve("campaign.json");
        Files.writeString(config, "{}");
        ShrinkPanel panel = open(robot);
        robot.interact(() -> panel.fill(new ShrinkRequest(config.toString(), "0x1f", "", "", dir.resolve("out2").toString())));
        robot.clickOn("#shrinkStart");
        FxTestSupport.waitUntil(() -> Files.exists(started) && panel.model().session() != null && panel.progress() > 0.7, 60);
        assertEquals("run 3: 3 deviation(s) of 12 left", panel.stateText());
        List<ProcessHandle> tree = panel.model().session().processTree();
        robot.clickOn("#shrinkCancel");
        FxTestSupport.waitUntil(() -> !panel.running(), 60);
        assertEquals("cancelled", panel.stateText());
        for (ProcessHandle h : tree) assertFalse(h.isAlive(), "process " + h.pid() + " ended");
        assertEquals(null, ui.vm.document(), "nothing opened");
        assertFalse(panel.startDisabled(), "a new shrink can start");
    }
}
