package dev.weft.app.tools;

import dev.weft.app.campaign.CampaignPanel;
import dev.weft.app.fuzz.FuzzPanel;
import dev.weft.app.run.RunPanel;
import dev.weft.app.vm.Settings;
import java.nio.file.Path;
import java.util.function.Consumer;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The run, fuzz and campaign panels, each in a window of its own beside the main window (one of each: asking again
 * brings it to the front). What they produce — recordings, reproducers, kept recordings — opens as a tab of the
 * main window through {@code openRecording}.
 */
public final class ToolWindows {

    private final Window owner;
    private final Settings settings;
    private final Consumer<Path> openRecording;
    private Stage runStage;
    private Stage fuzzStage;
    private Stage campaignStage;
    private RunPanel run;
    private FuzzPanel fuzz;
    private CampaignPanel campaign;
    private Stage shrinkStage;
    private dev.weft.app.shrink.ShrinkPanel shrink;
    private Consumer<Path> followRecording;
    private java.util.function.BiConsumer<Path, String> openAtFinding;

    public ToolWindows(Window owner, Settings settings, Consumer<Path> openRecording) {
        this.owner = owner;
        this.settings = settings;
        this.openRecording = openRecording;
    }

    /** True on Linux, where the shim (an LD_PRELOAD library) works. */
    public static boolean linux() {
        return System.getProperty("os.name", "").equals("Linux");
    }

    /** How the main window follows a recording being written (the run panel then offers "follow it live"). */
    public void setFollowRecording(Consumer<Path> follow) {
        this.followRecording = follow;
        if (run != null) run.setFollowRecording(follow);
    }

    /** How the main window opens a recording on the finding of an invariant (campaign hits); by default just opens it. */
    public void setOpenAtFinding(java.util.function.BiConsumer<Path, String> open) {
        this.openAtFinding = open;
    }

    public RunPanel showRun() {
        if (run == null) {
            run = new RunPanel(settings, openRecording, linux());
            run.setFollowRecording(followRecording);
            runStage = stage("Run — Weft Workbench", (Parent) run.node(), 1100, 760);
        }
        front(runStage);
        return run;
    }

    public FuzzPanel showFuzz() {
        if (fuzz == null) {
            fuzz = new FuzzPanel(settings, openRecording);
            fuzzStage = stage("Fuzz — Weft Workbench", (Parent) fuzz.node(), 1100, 760);
        }
        front(fuzzStage);
        return fuzz;
    }

    /** The campaign results window, showing {@code folder} if not null. */
    public CampaignPanel showCampaign(Path folder) {
        if (campaign == null) {
            campaign = new CampaignPanel(openRecording, openAtFinding != null ? openAtFinding : (p, invariant) -> openRecording.accept(p));
            campaignStage = stage("Campaign results — Weft Workbench", (Parent) campaign.node(), 1280, 780);
        }
        if (folder != null) campaign.open(folder);
        front(campaignStage);
        return campaign;
    }

    /** Tools ▸ Shrink…: weft shrink from a form; the minimal recording opens here with its plan. */
    public dev.weft.app.shrink.ShrinkPanel showShrink() {
        if (shrink == null) {
            shrink = new dev.weft.app.shrink.ShrinkPanel(openRecording);
            shrinkStage = stage("Shrink — Weft Workbench", (Parent) shrink.node(), 900, 600);
        }
        front(shrinkStage);
        return shrink;
    }

    /** The window of a tool opened so far ("run", "fuzz" or "campaign"), or null. */
    public Stage window(String tool) {
        return switch (tool) {
            case "run" -> runStage;
            case "fuzz" -> fuzzStage;
            case "campaign" -> campaignStage;
            case "shrink" -> shrinkStage;
            default -> throw new IllegalArgumentException("no tool " + tool);
        };
    }

    private Stage stage(String title, Parent root, double w, double h) {
        Stage s = new Stage();
        s.setTitle(title);
        Scene scene = new Scene(root, w, h);
        if (owner != null && owner.getScene() != null) {
            // the main window's stylesheets (theme included), as they are when the panel opens
            scene.getStylesheets().setAll(owner.getScene().getStylesheets());
            owner.getScene().getStylesheets().addListener((javafx.collections.ListChangeListener<String>) c ->
                    scene.getStylesheets().setAll(owner.getScene().getStylesheets()));
        }
        s.setScene(scene);
        if (owner instanceof Stage o) s.getIcons().setAll(o.getIcons());
        return s;
    }

    private static void front(Stage s) {
        s.show();
        s.toFront();
    }
}
