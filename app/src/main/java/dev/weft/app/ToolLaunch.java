package dev.weft.app;

import dev.weft.app.campaign.CampaignPanel;
import dev.weft.app.fuzz.FuzzPanel;
import dev.weft.app.run.RunPanel;
import dev.weft.app.run.RunRequest;
import dev.weft.app.tools.ToolWindows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.scene.Scene;
import javafx.util.Duration;

/**
 * {@code --tool}: opens the run, fuzz or campaign window filled from the command line. For {@code --screenshot} it
 * also does the tool's work — the run is started, the fuzz config swept, the campaign folder read — and hands the
 * window's scene over once there is a result to show, so the docs' panel pictures come from the app itself.
 */
final class ToolLaunch {

    /** How the rendering ends: the scene to snapshot, or why there is nothing to show. */
    interface Done {
        void shown(Scene scene);

        void failed(String why);
    }

    private ToolLaunch() { }

    /** Opens {@code o.tool()}; with {@code done} not null, works it to a result and calls {@code done} once. */
    static void open(ToolWindows tools, LaunchOptions o, Done done) {
        try {
            switch (o.tool()) {
                case "run" -> run(tools, o, done);
                case "fuzz" -> fuzz(tools, o, done);
                case "campaign" -> campaign(tools, o, done);
                default -> throw new IllegalArgumentException("no tool " + o.tool());
            }
            if (done != null) {
                // the picture is --size, as the main window's is; at the screen's corner, so that headless the whole
                // window lies on the virtual screen (Monocle's is sized for --size)
                javafx.stage.Stage w = tools.window(o.tool());
                w.setX(0);
                w.setY(0);
                w.setWidth(o.width());
                w.setHeight(o.height());
            }
        } catch (IllegalArgumentException | IOException e) {
            if (done != null) done.failed(e.getMessage());
            else System.err.println("weft workbench: --tool " + o.tool() + ": " + e.getMessage());
        }
    }

    private static void run(ToolWindows tools, LaunchOptions o, Done done) {
        RunPanel panel = tools.showRun();
        if (!o.runArgs().isEmpty()) panel.fill(RunRequest.fromArgs(o.runArgs()));
        if (done == null) return;
        if (!panel.canStart()) {
            done.failed("the run cannot start: " + panel.shownProblems().values());
            return;
        }
        panel.start();
        // exitStatus is set once the run has ended and its last lines are in; the drain shows them within 100 ms
        whenReady(tools, "run", () -> !panel.runningProperty().get() && panel.exitStatusProperty().get() >= 0,
                () -> null, done);
    }

    private static void fuzz(ToolWindows tools, LaunchOptions o, Done done) throws IOException {
        FuzzPanel panel = tools.showFuzz();
        if (o.file() != null) panel.load(o.file());
        if (done == null) return;
        if (!panel.canStart()) {
            done.failed(o.file() + ": " + panel.configError());
            return;
        }
        // the reproducers and report.txt are not the picture's concern: they go to a folder of their own
        Path out = Files.createTempDirectory("weft-workbench-fuzz-");
        panel.setOptions("", "", out);
        panel.start();
        whenReady(tools, "fuzz", () -> !panel.runningProperty().get(),
                () -> panel.resultProperty().get() == null ? panel.progressText() : null, done);
    }

    private static void campaign(ToolWindows tools, LaunchOptions o, Done done) {
        CampaignPanel panel = tools.showCampaign(o.file());
        if (done == null) return;
        whenReady(tools, "campaign", () -> panel.resultsProperty().get() != null || panel.summaryText().startsWith("✗"),
                () -> panel.resultsProperty().get() == null ? panel.summaryText().replaceFirst("^✗ ", "") : null, done);
    }

    /** Checks {@code ready} on the UI thread every 100 ms; then {@code error} says whether it went wrong. */
    private static void whenReady(ToolWindows tools, String tool, BooleanSupplier ready, Supplier<String> error, Done done) {
        Timeline poll = new Timeline();
        Consumer<Timeline> check = t -> {
            if (!ready.getAsBoolean()) return;
            t.stop();
            String why = error.get();
            // one more pulse so what arrived last (a run's final lines, a chart's bars) is laid out
            Timeline settle = new Timeline(new KeyFrame(Duration.millis(250), e -> {
                if (why != null) {
                    done.failed(why);
                    return;
                }
                Scene scene = tools.window(tool).getScene();
                scene.getRoot().requestFocus();   // no field drawn focused and selected in the picture
                done.shown(scene);
            }));
            settle.play();
        };
        poll.getKeyFrames().add(new KeyFrame(Duration.millis(100), e -> check.accept(poll)));
        poll.setCycleCount(Timeline.INDEFINITE);
        poll.play();
    }
}
