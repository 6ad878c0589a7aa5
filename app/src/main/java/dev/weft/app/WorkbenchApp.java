package dev.weft.app;

import dev.weft.app.source.RecordingOpener;
import dev.weft.app.view.MainWindow;
import dev.weft.timeline.PngWriter;
import dev.weft.app.vm.Settings;
import dev.weft.app.vm.TaskRunner;
import dev.weft.app.vm.WorkbenchViewModel;
import javafx.animation.PauseTransition;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.util.Duration;

import java.nio.file.Path;

/** The JavaFX application: one main window; in screenshot mode it renders one frame and exits. */
public final class WorkbenchApp extends Application {

    static volatile LaunchOptions options = new LaunchOptions(null, null, null, 1400, 900, false);
    static volatile int exitCode = 0;
    /** How files are opened; tests may replace it before launch. */
    public static volatile RecordingOpener opener = Openers.standard();

    @Override
    public void start(Stage stage) {
        LaunchOptions o = options;
        boolean screenshot = o.screenshot() != null;
        Settings settings = new Settings(screenshot ? null : Settings.defaultFile());
        WorkbenchViewModel vm = new WorkbenchViewModel(opener, TaskRunner.of(Platform::runLater), settings);
        MainWindow window = new MainWindow(vm);
        var visible = javafx.stage.Screen.getPrimary().getVisualBounds();
        WindowPlacement place = screenshot
                ? new WindowPlacement(Double.NaN, Double.NaN, o.width(), o.height())   // a picture, not a window: as asked
                : WindowPlacement.of(o, settings.getDouble("window.width", Double.NaN), settings.getDouble("window.height", Double.NaN),
                        settings.getDouble("window.x", Double.NaN), settings.getDouble("window.y", Double.NaN),
                        new WindowPlacement.Screen(visible.getMinX(), visible.getMinY(), visible.getWidth(), visible.getHeight()));
        Scene scene = window.createScene(place.width(), place.height());
        stage.setScene(scene);
        stage.getIcons().setAll(dev.weft.app.view.AppIcon.render(64), dev.weft.app.view.AppIcon.render(256));
        window.attach(stage);
        if (!screenshot) {
            stage.setX(place.x());
            stage.setY(place.y());
        }
        stage.setOnCloseRequest(e -> window.saveLayout());
        stage.show();
        if (screenshot) {
            vm.errorProperty().addListener((obs, a, err) -> {
                if (err != null && !err.isEmpty()) {
                    System.err.println("weft workbench: " + err);
                    exitCode = 1;
                    Platform.exit();
                }
            });
            PauseTransition guard = new PauseTransition(Duration.seconds(300));
            guard.setOnFinished(e -> {
                System.err.println("weft workbench: gave up waiting for "
                        + (o.tool() != null ? "the " + o.tool() + " tool's result" : o.file() + " to open") + " (300 s)");
                exitCode = 1;
                Platform.exit();
            });
            guard.play();
        }
        if (o.tool() != null) {
            ToolLaunch.open(window.toolWindows(), o, !screenshot ? null : new ToolLaunch.Done() {
                @Override public void shown(Scene toolScene) {
                    writeScreenshot(toolScene, o.screenshot());
                }

                @Override public void failed(String why) {
                    System.err.println("weft workbench: --tool " + o.tool() + ": " + why);
                    exitCode = 1;
                    Platform.exit();
                }
            });
        } else if (o.file() != null && o.follow()) {
            vm.follow(o.file());
        } else if (o.file() != null) {
            window.open(o.file(), o.untilOp(), doc -> {
                if (o.compare() != null) {
                    window.compareWith(o.compare(), compare -> {
                        if (screenshot) settleThen(vm.runner(), () -> writeScreenshot(scene, o.screenshot()));
                    });
                } else if (screenshot) {
                    settleThen(vm.runner(), () -> writeScreenshot(scene, o.screenshot()));
                }
            });
        }
    }

    /** Runs after every background task queued so far has published its result (the worker is FIFO). */
    static void settleThen(TaskRunner runner, Runnable then) {
        runner.background(() -> runner.ui(() -> runner.background(() -> runner.ui(() -> Platform.runLater(then)))));
    }

    /** One frame of {@code scene}, laid out as it is now, as a PNG. */
    static void savePng(Scene scene, Path out) throws java.io.IOException {
        scene.getRoot().applyCss();
        scene.getRoot().layout();
        PngWriter.write(scene.snapshot(null), out);
    }

    private static void writeScreenshot(Scene scene, Path out) {
        try {
            savePng(scene, out);
            System.out.println("wrote " + out);
            exitCode = 0;
        } catch (Exception e) {
            System.err.println("weft workbench: cannot write " + out + ": " + e.getMessage());
            exitCode = 1;
        }
        Platform.exit();
    }
}
