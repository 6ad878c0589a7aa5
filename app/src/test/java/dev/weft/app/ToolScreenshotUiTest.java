package dev.weft.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.campaign.CampaignFixture;
import dev.weft.app.tools.ToolWindows;
import dev.weft.app.vm.Settings;
import dev.weft.testsupport.NativeBuild;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * {@code weft workbench --tool T --screenshot OUT.png}: the tool's window does its work and is rendered — the picture
 * is of that panel (not the main window), at --size, with content, and taken only once the result is there.
 */
@ExtendWith(ApplicationExtension.class)
class ToolScreenshotUiTest {

    private Stage main;

    @Start
    void start(Stage stage) {
        main = stage;
        stage.setScene(new Scene(new StackPane(), 400, 300));
        stage.show();
    }

    /** What a --tool --screenshot ended with: the panel's id and the PNG, or why it failed. */
    private record Shot(String panelId, BufferedImage png, String failure) {
    }

    private Shot shoot(FxRobot robot, Path out, String... args) throws Exception {
        LaunchOptions o = LaunchOptions.parse(args);
        CompletableFuture<Shot> shot = new CompletableFuture<>();
        robot.interact(() -> ToolLaunch.open(new ToolWindows(main, new Settings(null), p -> { }), o, new ToolLaunch.Done() {
            @Override public void shown(Scene scene) {
                try {
                    WorkbenchApp.savePng(scene, out);
                    shot.complete(new Shot(scene.getRoot().getId(), null, null));
                } catch (Exception e) {
                    shot.completeExceptionally(e);
                }
            }

            @Override public void failed(String why) {
                shot.complete(new Shot(null, null, why));
            }
        }));
        Shot s = shot.get(120, TimeUnit.SECONDS);
        return s.failure() != null ? s : new Shot(s.panelId(), ImageIO.read(out.toFile()), null);
    }

    /** Distinct colours in a grid of samples: a blank or one-colour frame has one or two. */
    private static int colours(BufferedImage img) {
        Set<Integer> seen = new HashSet<>();
        for (int y = 0; y < img.getHeight(); y += 4) {
            for (int x = 0; x < img.getWidth(); x += 4) seen.add(img.getRGB(x, y));
        }
        return seen.size();
    }

    @Test
    void campaignRendersTheCampaignPanelWithTheFolderRead(FxRobot robot, @TempDir Path dir) throws Exception {
        Path campaign = CampaignFixture.create(dir.resolve("campaign"));
        Path out = dir.resolve("campaign.png");
        Shot s = shoot(robot, out, "--tool", "campaign", campaign.toString(), "--screenshot", out.toString(), "--size", "1000x700");
        assertNull(s.failure());
        assertEquals("campaignPanel", s.panelId(), "the campaign window, not the main one");
        assertEquals(1000, s.png().getWidth());
        assertEquals(700, s.png().getHeight());
        assertTrue(colours(s.png()) > 40, "a filled panel (tables, chart bars), not a blank frame: " + colours(s.png()));
        Files.copy(out, Files.createDirectories(Path.of("target", "screenshots")).resolve("tool-campaign.png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    @Test
    void aFolderThatIsNoCampaignFailsWithTheReasonAndNoPicture(FxRobot robot, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("none.png");
        Shot s = shoot(robot, out, "--tool", "campaign", dir.toString(), "--screenshot", out.toString());
        assertNotNull(s.failure());
        assertTrue(s.failure().startsWith(dir + ": no report.json"), s.failure());
        assertTrue(Files.notExists(out));
    }

    @Test
    void fuzzRendersTheFuzzPanelAfterTheSweep(FxRobot robot, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("fuzz.png");
        Shot s = shoot(robot, out, "--tool", "fuzz", NativeBuild.root().resolve("examples/fuzz/sample.json").toString(),
                "--screenshot", out.toString(), "--size", "1000x700");
        assertNull(s.failure());
        assertEquals("fuzzPanel", s.panelId());
        assertEquals(1000, s.png().getWidth());
        assertTrue(colours(s.png()) > 40, "colours: " + colours(s.png()));
    }

    @Test
    void runRendersTheRunPanelOnceTheRunHasEnded(FxRobot robot, @TempDir Path dir) throws Exception {
        Path pingpong = NativeBuild.example("pingpong");
        Path out = dir.resolve("run.png");
        Path log = dir.resolve("pp.weftlog");
        Shot s = shoot(robot, out, "--tool", "run", "--screenshot", out.toString(), "--size", "1000x700", "--",
                "--seed", "7", "--net", "latency=uniform:1000-60000", "--nodes", "2", "--record", log.toString(), "--",
                pingpong.toString());
        assertNull(s.failure());
        assertEquals("runPanel", s.panelId());
        assertTrue(Files.isRegularFile(log), "the run was started and recorded");
        assertTrue(new dev.weft.app.run.LogTail(log).poll().ended(), "the picture is taken after the run ended");
        assertTrue(colours(s.png()) > 40, "colours: " + colours(s.png()));
    }

    @Test
    void aRunTheFormRefusesFailsWithTheFieldsProblem(FxRobot robot, @TempDir Path dir) throws Exception {
        Path out = dir.resolve("bad.png");
        Shot s = shoot(robot, out, "--tool", "run", "--screenshot", out.toString(), "--",
                "--net", "latency=uniform:5-1", "--nodes", "2", "--", "/bin/true");
        assertNotNull(s.failure());
        assertTrue(s.failure().startsWith("the run cannot start:") && s.failure().contains("latency"), s.failure());
        Shot unknown = shoot(robot, out, "--tool", "run", "--screenshot", out.toString(), "--", "--hosts", "a:1", "--", "p");
        assertTrue(unknown.failure().startsWith("the run panel has no field for \"--hosts\""), unknown.failure());
        assertTrue(Files.notExists(out));
    }

}
