package dev.weft.app.view;

import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.RecordingOpener;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.Settings;
import dev.weft.app.vm.TaskRunner;
import dev.weft.app.vm.WorkbenchViewModel;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real main window on a stage, with helpers to open a file and wait until everything settled. A UI test holds one
 * in a {@code @RegisterExtension} field and carries {@code @ExtendWith(ApplicationExtension.class)}: TestFX's
 * extension registers the primary stage (and cleans up after each test) first, then this one shows a fresh window
 * on it before each test.
 */
final class UiHarness implements BeforeEachCallback {

    private final RecordingOpener opener;
    private final double width;
    private final double height;
    final TaskRunner runner = TaskRunner.of(Platform::runLater);
    WorkbenchViewModel vm;
    MainWindow window;
    Scene scene;

    private UiHarness(RecordingOpener opener, double width, double height) {
        this.opener = opener;
        this.width = width;
        this.height = height;
    }

    /** A window on recordings read from their files, the size of Monocle's default headless screen. */
    static UiHarness onRecordings() {
        return onRecordings(1280, 800);
    }

    /** A window of the given size on recordings read from their files. */
    static UiHarness onRecordings(double width, double height) {
        return new UiHarness(IndexedRecordingSource::open, width, height);
    }

    /** A window that opens every file with opener, the size of Monocle's default headless screen. */
    static UiHarness opening(RecordingOpener opener) {
        return new UiHarness(opener, 1280, 800);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        FxToolkit.setupStage(this::show);
    }

    private void show(Stage stage) {
        vm = new WorkbenchViewModel(opener, runner, new Settings(null));
        window = new MainWindow(vm);
        scene = window.createScene(width, height);
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

    /** Types op into the toolbar's "go to op" box and presses Enter, as a person would; the cursor is then at op. */
    void goToByTyping(FxRobot robot, DocumentViewModel doc, int op) throws Exception {
        robot.clickOn("#goToField").write(Integer.toString(op)).type(KeyCode.ENTER);
        settle();
        org.junit.jupiter.api.Assertions.assertEquals(op, doc.cursor());
    }

    /** The event table has op selected, and the rows on screen show their records' real lines; returns the table. */
    static TableView<?> assertEventTableAt(FxRobot robot, DocumentViewModel doc, int op) {
        TableView<?> table = robot.lookup("#eventTable").queryAs(TableView.class);
        org.junit.jupiter.api.Assertions.assertEquals(op, table.getSelectionModel().getSelectedItem());
        assertEventCellsShowLines(table, doc);
        return table;
    }

    /**
     * The event column of every row on screen shows the record's real line (filled in the background, not a
     * placeholder left behind); returns how many rows were checked.
     */
    static int assertEventCellsShowLines(TableView<?> table, DocumentViewModel doc) {
        int checked = 0;
        for (javafx.scene.Node n : table.lookupAll(".table-cell")) {
            if (!(n instanceof javafx.scene.control.TableCell<?, ?> c) || c.getTableColumn() == null
                    || !"event".equals(c.getTableColumn().getText()) || c.isEmpty() || !c.isVisible()
                    || c.getTableRow() == null || !c.getTableRow().isVisible()) continue;
            int row = c.getIndex();
            if (row < 0 || row >= table.getItems().size()) continue;
            int op = (Integer) table.getItems().get(row);
            org.junit.jupiter.api.Assertions.assertEquals(doc.source().eventLine(op), c.getText(), "event cell of op " + op);
            checked++;
        }
        org.junit.jupiter.api.Assertions.assertTrue(checked >= 5, "rows on screen: " + checked);
        return checked;
    }

    void screenshot(FxRobot robot, String name) {
        dev.weft.app.FxTestSupport.screenshot(robot, scene, name);
    }
}
