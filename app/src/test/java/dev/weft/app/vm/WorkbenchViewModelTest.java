package dev.weft.app.vm;

import dev.weft.app.source.FakeRecordingSource;
import dev.weft.app.source.RecordingOpener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkbenchViewModelTest {

    @TempDir
    Path dir;

    private final RecordingOpener opener = (file, progress) -> {
        if (file.toString().contains("bad")) throw new RecordingOpener.OpenException(file + ": I/O error: No such file or directory");
        progress.update(0.5, "indexing");
        if (progress.cancelled()) throw new InterruptedException();
        return FakeRecordingSource.generated(1, 3, 300);
    };

    @Test
    void opensInTheBackgroundAtTheFirstViolationAndRemembersTheFile() {
        Settings settings = new Settings(dir.resolve("s.properties"));
        WorkbenchViewModel vm = new WorkbenchViewModel(opener, TaskRunner.direct(), settings);
        List<DocumentViewModel> opened = new ArrayList<>();
        vm.open(Path.of("a.weftlog"), opened::add);
        assertFalse(vm.loadingProperty().get());
        assertEquals(1, opened.size());
        DocumentViewModel doc = vm.document();
        assertFalse(doc.violations().isEmpty());
        assertEquals(doc.violations().get(0).op(), doc.cursor());
        assertEquals(Path.of("a.weftlog").toAbsolutePath(), vm.recentFiles().get(0));
        vm.open(Path.of("b.weftlog"), null);
        vm.open(Path.of("a.weftlog"), null);
        assertEquals(List.of(Path.of("a.weftlog").toAbsolutePath(), Path.of("b.weftlog").toAbsolutePath()), vm.recentFiles());
        // Remembered across runs, with the theme.
        vm.toggleTheme();
        Settings again = new Settings(dir.resolve("s.properties"));
        WorkbenchViewModel vm2 = new WorkbenchViewModel(opener, TaskRunner.direct(), again);
        assertEquals(vm.recentFiles(), vm2.recentFiles());
        assertEquals(WorkbenchViewModel.Theme.DARK, vm2.themeProperty().get());
    }

    @Test
    void aFileThatCannotBeReadShowsTheErrorAndKeepsTheOldDocument() {
        WorkbenchViewModel vm = new WorkbenchViewModel(opener, TaskRunner.direct(), new Settings(null));
        vm.open(Path.of("good.weftlog"), null);
        DocumentViewModel before = vm.document();
        vm.open(Path.of("bad.weftlog"), null);
        assertEquals("bad.weftlog: I/O error: No such file or directory", vm.errorProperty().get());
        assertEquals(before, vm.document());
        assertFalse(vm.loadingProperty().get());
    }

    @Test
    void cancellingALoadPublishesNothing() {
        List<Runnable> queued = new ArrayList<>();
        WorkbenchViewModel vm = new WorkbenchViewModel(opener, queueingTo(queued), new Settings(null));
        vm.open(Path.of("a.weftlog"), null);
        assertTrue(vm.loadingProperty().get(), "the caller is not blocked");
        vm.cancelLoad();
        new ArrayList<>(queued).forEach(Runnable::run);
        assertNull(vm.document());
        assertEquals("cancelled", vm.progressTextProperty().get());
    }

    /** Issue 26: the toolbar is usable while a big file loads; an op typed then is where the document opens. */
    @Test
    void anOpAskedForWhileTheFileLoadsIsWhereItOpens() {
        List<Runnable> queued = new ArrayList<>();
        WorkbenchViewModel vm = new WorkbenchViewModel(opener, queueingTo(queued), new Settings(null));
        assertFalse(vm.goToWhenLoaded("150"), "nothing loads: nothing to remember");
        vm.open(Path.of("a.weftlog"), null);
        assertTrue(vm.goToWhenLoaded("150"));
        runAll(queued);   // the load, then the checks it starts
        assertEquals(150, vm.document().cursor(), "at the op asked for, not at the first violation");
        vm.open(Path.of("b.weftlog"), null);
        runAll(queued);
        DocumentViewModel b = vm.document();
        assertEquals(b.violations().get(0).op(), b.cursor(), "asked for one load only");
    }

    /** A runner that leaves background work in queued, for the test to run when it chooses, and updates at once. */
    private static TaskRunner queueingTo(List<Runnable> queued) {
        return new TaskRunner() {
            @Override public void background(Runnable work) { queued.add(work); }
            @Override public void ui(Runnable update) { update.run(); }
        };
    }

    private static void runAll(List<Runnable> queued) {
        while (!queued.isEmpty()) queued.remove(0).run();
    }

    @Test
    void settingsSurviveOddCharactersAndIgnoreAGarbledFile() throws Exception {
        Path f = dir.resolve("x/y.properties");
        Settings s = new Settings(f);
        s.setRecentFiles(List.of(Path.of("/tmp/a=b:c #d/é.weftlog")));
        s.putDouble("split", 0.25);
        assertTrue(s.save());
        Settings r = new Settings(f);
        assertEquals(List.of(Path.of("/tmp/a=b:c #d/é.weftlog")), r.recentFiles());
        assertEquals(0.25, r.getDouble("split", 0));
        Files.writeString(f, "\\u12");   // malformed escape
        assertEquals(List.of(), new Settings(f).recentFiles());
    }
}
