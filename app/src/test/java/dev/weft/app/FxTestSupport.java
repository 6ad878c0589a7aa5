package dev.weft.app;

import dev.weft.timeline.PngWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javafx.application.Platform;
import javafx.scene.Scene;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** What the tool windows' UI tests share: waiting for the FX thread to see a condition, and saving a screenshot. */
public final class FxTestSupport {
    private FxTestSupport() {
    }

    /**
     * Polls {@code done} on the FX thread (where the panels' state lives) until it holds; fails after
     * {@code seconds}. Pending FX events are flushed before each look, so work queued by a background thread counts.
     */
    public static void waitUntil(BooleanSupplier done, int seconds) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            WaitForAsyncUtils.waitForFxEvents();
            boolean[] ok = new boolean[1];
            Platform.runLater(() -> ok[0] = done.getAsBoolean());
            WaitForAsyncUtils.waitForFxEvents();
            if (ok[0]) return;
            if (System.nanoTime() > end) throw new AssertionError("not done after " + seconds + " s");
            Thread.sleep(20);
        }
    }

    /** Lays the scene out and writes it to {@code target/screenshots/NAME.png} (to be looked at, not compared). */
    public static void screenshot(FxRobot robot, Scene scene, String name) {
        robot.interact(() -> {
            try {
                scene.getRoot().applyCss();
                scene.getRoot().layout();
                PngWriter.write(scene.snapshot(null), Path.of("target", "screenshots", name + ".png"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
