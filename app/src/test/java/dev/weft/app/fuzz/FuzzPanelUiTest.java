package dev.weft.app.fuzz;

import static dev.weft.app.FxTestSupport.waitUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.FxTestSupport;
import dev.weft.app.vm.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * The fuzz panel runs the engine's real fuzzer on examples/fuzz/sample.json: cancel stops a long sweep early and
 * leaves nothing behind; a run to the end lists the one distinct violation with its seeds and 7-op shrunk
 * reproducer, and a double-click hands that reproducer to the main window; a broken config is refused as typed.
 */
@ExtendWith(ApplicationExtension.class)
class FuzzPanelUiTest {

    private FuzzPanel panel;
    private Scene scene;
    private final List<Path> opened = new CopyOnWriteArrayList<>();

    @Start
    void start(Stage stage) {
        panel = new FuzzPanel(new Settings(null), opened::add);
        scene = new Scene((Region) panel.node(), 1200, 780);
        stage.setScene(scene);
        stage.show();
    }

    /** Issue 28: a config that is /dev/zero is a message in the panel, read no further than 1 MiB. */
    @Test
    void anEndlessConfigFileIsAMessageNotAFrozenWindow(FxRobot robot, @TempDir Path dir) throws Exception {
        Path zero = Files.createSymbolicLink(dir.resolve("zero.json"), Path.of("/dev/zero"));
        robot.interact(() -> panel.load(zero));
        assertEquals("cannot read " + zero + ": more than 1048576 bytes (1 MiB)", panel.configError());
    }

    @Test
    void cancelStopsTheSweepThenARunToTheEndOpensItsReproducer(FxRobot robot, @TempDir Path dir) throws Exception {
        Path config = sample();
        Path out = dir.resolve("fuzz-out");
        // A sweep far too long to finish in the test: cancel must stop it.
        robot.interact(() -> {
            panel.load(config);
            panel.setOptions("0:100000000", "2", out);
        });
        assertTrue(panel.canStart(), panel.configError());
        robot.clickOn("#startFuzz");
        waitUntil(() -> panel.progressFraction() > 0 && panel.progressText().startsWith("sweeping"), 30);
        robot.clickOn("#cancelFuzz");
        waitUntil(() -> !panel.runningProperty().get(), 30);
        assertTrue(panel.progressText().startsWith("cancelled"), panel.progressText());
        assertNull(panel.resultProperty().get());
        assertFalse(Files.exists(out.resolve("report.txt")), "a cancelled run writes no report");

        robot.interact(() -> panel.setOptions("0:40", "2", out));
        robot.clickOn("#startFuzz");
        waitUntil(() -> !panel.runningProperty().get() && panel.resultProperty().get() != null, 60);
        FuzzSession.Result r = panel.resultProperty().get();
        assertEquals(40, r.tested());
        assertEquals(1, r.findings().size(), "one distinct violation: " + r.findings());
        FuzzSession.Finding f = r.findings().get(0);
        assertTrue(f.violation().startsWith("per-channel-fifo on 127.0.0.2:100 → 127.0.0.1:100"), f.violation());
        assertEquals(7, f.opsAfter(), "shrunk to the 7-op reproducer");
        assertTrue(f.opsBefore() > f.opsAfter());
        assertEquals(r.failing(), f.seeds().size());
        assertEquals(r.failingSeeds(), f.seeds());
        assertTrue(Files.isRegularFile(f.reproducer()) && f.reproducer().startsWith(out), f.reproducer().toString());
        assertTrue(Files.isRegularFile(out.resolve("report.txt")));
        assertEquals(1.0, panel.progressFraction());
        long charted = panel.perRangeChart().getData().get(0).getData().stream().mapToLong(d -> d.getYValue().longValue()).sum();
        assertEquals(r.failing(), charted, "the per-range chart counts every failing seed once");

        screenshot(robot, "fuzz-panel");
        robot.doubleClickOn(robot.lookup("#fuzzFindings .table-row-cell").match((javafx.scene.Node n) ->
                n instanceof javafx.scene.control.TableRow<?> row && row.getIndex() == 0 && !row.isEmpty() && row.isVisible()).queryAs(javafx.scene.Node.class));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(List.of(f.reproducer()), opened, "the reproducer goes to the main window");
    }

    @Test
    void aBrokenConfigIsRefusedAsTyped(FxRobot robot, @TempDir Path dir) throws Exception {
        robot.interact(() -> {
            panel.load(sample());
            panel.setOptions("", "", dir);
        });
        assertTrue(panel.canStart());
        robot.interact(() -> robot.lookup("#fuzzConfigEditor").queryAs(javafx.scene.control.TextArea.class)
                .setText("{\n  \"net\": \"latency=uniform:0-8000\",\n  \"seed_count\": -1\n}"));
        assertFalse(panel.canStart());
        assertTrue(panel.configError().contains("line 3"), panel.configError());
        robot.interact(() -> panel.setOptions("zero:5", "", dir));
        screenshot(robot, "fuzz-panel-config-error");
    }

    private static Path sample() {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(root.resolve("examples").resolve("fuzz").resolve("sample.json"))) root = root.getParent();
        return root.resolve("examples").resolve("fuzz").resolve("sample.json");
    }

    private void screenshot(FxRobot robot, String name) {
        FxTestSupport.screenshot(robot, scene, name);
    }
}
