package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.timeline.ChordRingView;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * The workbench opens a Chord recording made just now by our own broker and shim (examples/chord_node, 7 nodes,
 * CHORD_FIX=0, seed 3: a run the checker finds unrepaired) like any other, and its Chord ring tab shows the
 * members' final state. Needs Linux and the shim-native build; skipped otherwise.
 */
@ExtendWith(ApplicationExtension.class)
class FreshChordRecordingUiTest {

    private UiHarness ui;

    @Start
    void start(Stage stage) {
        ui = new UiHarness(stage, IndexedRecordingSource::open);
    }

    @Test
    void showsTheRingOfAFreshRecording(FxRobot robot, @TempDir Path dir) throws Exception {
        Path native_ = repositoryRoot().resolve("shim-native").resolve("target");
        Path shim = native_.resolve("libweft_shim.so");
        Path chord = native_.resolve("examples").resolve("chord_node");
        assumeTrue(System.getProperty("os.name").equals("Linux"), "skipped: recording needs Linux");
        assumeTrue(Files.isRegularFile(shim) && Files.isExecutable(chord), "skipped: shim-native was not built");

        Path log = dir.resolve("chord-fix0-s3.weftlog");
        String err = record(List.of("--shim", shim.toString(), "--seed", "3", "--net", "latency=uniform:1000-60000",
                "--nodes", "7", "--watchdog", "30", "--record", log.toString(), "--", chord.toString(), "6", "45", "3"),
                Map.of("CHORD_NNODES", "7", "CHORD_FIX", "0"));

        DocumentViewModel doc = ui.open(robot, log, null);
        assertTrue(doc.size() > 1000, "records: " + doc.size() + "\n" + err);
        int last = doc.size() - 1;
        robot.clickOn("#goToField").write(Integer.toString(last)).type(KeyCode.ENTER);
        ui.settle();
        assertEquals(last, doc.cursor());
        robot.clickOn("Chord ring");
        ui.settle();
        ChordRingView ring = robot.lookup(n -> n instanceof ChordRingView).queryAs(ChordRingView.class);
        assertTrue(ring.isVisible() && ring.getWidth() > 100, "the ring view is on screen");
        Map<Integer, int[]> state = ChordRingView.snapshot(ring.reportsProperty().get(), last);
        assertEquals(6, state.size(), "six members reported: " + state.keySet());
        assertEquals(3, state.values().stream().filter(s -> s[1] == 0).count(), "the three appendages failed");
        ui.screenshot(robot, "fresh-chord-recording-ring");
    }

    /** weft run in this JVM (its entry point with explicit streams is package-private to the launcher). */
    private static String record(List<String> args, Map<String, String> extraEnv) throws Exception {
        Class<?> run = Class.forName("dev.weft.launcher.run.RunCommand");
        Method m = run.getDeclaredMethod("run", String[].class, Map.class, PrintStream.class, PrintStream.class);
        m.setAccessible(true);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("WEFT_") || k.startsWith("CHORD_") || k.equals("LD_PRELOAD"));
        env.putAll(extraEnv);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = (int) m.invoke(null, args.toArray(String[]::new), env, o, e);
        }
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, "weft run: " + stderr);
        return stderr;
    }

    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("shim-native").resolve("Makefile"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root above " + Path.of("").toAbsolutePath());
    }
}
