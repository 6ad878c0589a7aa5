package dev.weft.app.view;

import dev.weft.app.PngWriter;
import dev.weft.app.source.RecordingOpener;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.Settings;
import dev.weft.app.vm.TaskRunner;
import dev.weft.app.vm.WorkbenchViewModel;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A real main window on a stage, with helpers to open a file and wait until everything settled. */
final class UiHarness {

    final WorkbenchViewModel vm;
    final MainWindow window;
    final Scene scene;
    final TaskRunner runner = TaskRunner.of(Platform::runLater);

    UiHarness(Stage stage, RecordingOpener opener) {
        vm = new WorkbenchViewModel(opener, runner, new Settings(null));
        window = new MainWindow(vm);
        scene = window.createScene(1280, 800);   // Monocle's default headless screen
        stage.setScene(scene);
        window.attach(stage);
        stage.show();
    }

    DocumentViewModel open(FxRobot robot, Path file, Integer until) throws Exception {
        CompletableFuture<DocumentViewModel> ready = new CompletableFuture<>();
        robot.interact(() -> window.open(file, until, ready::complete));
        DocumentViewModel doc = ready.get(60, TimeUnit.SECONDS);
        settle();
        return doc;
    }

    /** Waits until the worker queue and the FX queue are both drained. */
    void settle() throws Exception {
        for (int i = 0; i < 2; i++) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            runner.background(() -> runner.ui(() -> done.complete(null)));
            done.get(60, TimeUnit.SECONDS);
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    void screenshot(FxRobot robot, String name) {
        robot.interact(() -> {
            try {
                scene.getRoot().applyCss();
                scene.getRoot().layout();
                PngWriter.write(scene.snapshot(null), Path.of("target", "screenshots", name + ".png"));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }
}
