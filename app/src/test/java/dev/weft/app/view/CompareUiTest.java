package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.vm.CompareViewModel;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.OpenTabs;
import dev.weft.fuzz.FuzzConfig;
import dev.weft.fuzz.FuzzConfigLoader;
import dev.weft.fuzz.Reproducer;
import dev.weft.fuzz.WorkloadGenerator;
import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.LogWriter;
import dev.weft.testcorpus.SharedCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/** Tabs and the compare view on real recordings, headless: issue 16's compare acceptance. */
@ExtendWith(ApplicationExtension.class)
class CompareUiTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    private CompareViewModel compare(FxRobot robot, Path other) throws Exception {
        CompletableFuture<CompareViewModel> done = new CompletableFuture<>();
        robot.interact(() -> ui.window.compareWith(other, done::complete));
        CompareViewModel c = done.get(60, TimeUnit.SECONDS);
        ui.settle();
        ui.settle(); // the link search queued by the cursor moves
        return c;
    }

    private static void fire(FxRobot robot, String id) {
        robot.interact(() -> robot.lookup(id).queryAs(javafx.scene.control.ButtonBase.class).fire());
    }

    /** The first index where the record lines (chain cut off) differ: derived without the diff code. */
    private static int firstDifferingLine(Path a, Path b) throws Exception {
        List<String> la = Files.readAllLines(a);
        List<String> lb = Files.readAllLines(b);
        int k = 1; // line 0 is the header
        while (k < la.size() && k < lb.size()
                && la.get(k).replaceAll(",\"chain\":\"[0-9a-f]+\"}$", "}").equals(lb.get(k).replaceAll(",\"chain\":\"[0-9a-f]+\"}$", "}"))) {
            k++;
        }
        return k - 1;
    }

    @Test
    void aRecordingAgainstACopyWithOneEditedRecordDivergesAtTheEditedOpAndStepsBothCursors(FxRobot robot) throws Exception {
        Path original = SharedCorpus.conformance().resolve("pingpong/pp-loss0.1-s4.weftlog");
        Path edited = dir.resolve("pp-edited.weftlog");
        long editedOp = -1;
        long editedVt = -1;
        try (LogReader r = LogReader.open(original);
             LogWriter w = LogWriter.create(edited, r.header().seed(), r.header().net(), r.header().windowNs(), r.header().meta())) {
            for (LogRecord rec; (rec = r.next()) != null; ) {
                Event e = rec.event();
                if (editedOp < 0 && rec.op() >= 100 && e instanceof Event.Send s) {
                    e = new Event.Send(s.conn(), s.src(), s.dst(), s.chanSeq(), s.sendVt(), "ff" + s.payload(), s.outcome());
                    editedOp = rec.op();
                    editedVt = rec.vt();
                }
                w.append(rec.vt(), e);
            }
        }
        ui.open(robot, original, 0);
        CompareViewModel c = compare(robot, edited);
        assertEquals(editedOp, c.divergenceOpAProperty().get());
        assertEquals(editedOp, c.divergenceOpBProperty().get());
        assertEquals(firstDifferingLine(original, edited), c.divergenceOpAProperty().get());
        ComparePane pane = ui.window.comparePane();
        assertNotNull(pane, "the comparison is on screen");
        assertEquals(editedOp, pane.timelineA().errorOpProperty().get());
        assertEquals(editedOp, pane.timelineB().errorOpProperty().get());
        assertEquals(editedOp, c.a().cursor());
        assertEquals(editedOp, c.b().cursor());
        assertTrue(c.reportProperty().get().contains("first divergence at op " + editedOp + " "), c.reportProperty().get());
        // Three tabs: the recording, the copy, the comparison (selected).
        assertEquals(3, ui.window.tabBar().getTabs().size());
        assertTrue(ui.window.tabBar().getSelectionModel().getSelectedItem().getText().contains("⇄"));
        ui.screenshot(robot, "compare-edited-copy-at-divergence");

        robot.clickOn("#compareStepForward");   // one real click; the rest fire the buttons (mouse moves are slow)
        fire(robot, "#compareStepForward");
        ui.settle();
        ui.settle();
        assertEquals(editedOp + 2, c.a().cursor());
        assertEquals(editedOp + 2, c.b().cursor());
        // Past the edited record the copy holds the same events: A's cursor event is linked to the same op on B.
        assertEquals(editedOp + 2, c.linkedOpBProperty().get());
        fire(robot, "#compareStepBack");
        fire(robot, "#compareGoToDivergence");
        ui.settle();
        assertEquals(editedOp, c.a().cursor());
        assertEquals(editedOp, c.b().cursor());
        ui.screenshot(robot, "compare-edited-copy-stepped");

        // Aligned by vt: the edited record's vt is where the events differ.
        fire(robot, "#compareByVt");
        for (int i = 0; i < 50 && !c.doneProperty().get(); i++) ui.settle();
        assertTrue(c.reportProperty().get().contains("first divergence at vt " + editedVt + " ns"), c.reportProperty().get());
    }

    /**
     * Issue 26: two seeds of one program differ from op 2 on (the nodes start in another order), which says nothing; the
     * comparison names what a node first saw or did differently, and lists the start order as schedule only.
     */
    @Test
    void twoSeedsOfOneProgramPartWhereANodeFirstSeesADifference(FxRobot robot) throws Exception {
        ui.open(robot, SharedCorpus.conformance().resolve("pingpong/pp-loss0.1-s1.weftlog"), 0);
        CompareViewModel c = compare(robot, SharedCorpus.conformance().resolve("pingpong/pp-loss0.1-s3.weftlog"));
        assertEquals(2, c.divergenceOpAProperty().get(), "the records part at op 2: start order");
        assertEquals(6, c.effectOpAProperty().get());
        assertEquals(6, c.effectOpBProperty().get());
        String headline = robot.lookup("#compareHeadline").queryAs(javafx.scene.control.Label.class).getText();
        assertTrue(headline.startsWith("first node-visible difference: node 1, send #1"), headline);
        assertTrue(headline.contains("A op 6 vt 0 ns: sent to 127.0.0.1:4000: \"PING:163717f8c8a019cc\""), headline);
        assertTrue(headline.contains("B op 6 vt 0 ns: sent to 127.0.0.1:4000: \"PING:0b320a7959838e1f\""), headline);
        String schedule = robot.lookup("#compareSchedule").queryAs(javafx.scene.control.Label.class).getText();
        assertTrue(schedule.startsWith("schedule only: node start order"), schedule);
        assertEquals(6, c.a().cursor());
        assertEquals(6, c.b().cursor());

        // Linked cursor: B follows A.
        robot.interact(() -> c.a().goTo(9));
        ui.settle();
        assertEquals(9, c.b().cursor());
        ui.screenshot(robot, "compare-two-seeds-node-visible");
    }

    @Test
    void raftWithAndWithoutTheFixEachSideAtItsOwnOp(FxRobot robot) throws Exception {
        ui.open(robot, SharedCorpus.conformance().resolve("raft/raft-fix0-s0.weftlog"), 0);
        CompareViewModel c = compare(robot, SharedCorpus.conformance().resolve("raft/raft-fix1-s0.weftlog"));
        // the earliest difference in virtual time: at vt 0 node 4 sends a 5th time on B; on A its 5th event is a
        // delivery at vt 9635 (node 2's, A op 39 at vt 2586 / B op 85, comes later)
        assertEquals(291, c.a().cursor());
        assertEquals(49, c.b().cursor());
        String headline = robot.lookup("#compareHeadline").queryAs(javafx.scene.control.Label.class).getText();
        assertTrue(headline.startsWith("first node-visible difference: node 4, event #5 (A: delivery #1, B: send #5)"), headline);
        // Linked zoom: zooming A shows the same window on B.
        ComparePane pane = ui.window.comparePane();
        robot.interact(() -> pane.timelineA().showOps(100, 300));
        ui.settle();
        double[] wa = pane.timelineA().windowProperty().get(), wb = pane.timelineB().windowProperty().get();
        assertTrue(wa[1] - wa[0] < 1000, java.util.Arrays.toString(wa));
        assertEquals(java.util.Arrays.toString(wa), java.util.Arrays.toString(wb));
        ui.screenshot(robot, "compare-raft-fix0-fix1");
    }

    @Test
    void aFuzzFailureAgainstItsShrunkReproducer(FxRobot robot) throws Exception {
        Path fuzz = SharedCorpus.conformance().resolve("fuzz");
        FuzzConfig config = FuzzConfigLoader.load(fuzz.resolve("demo.json"), "demo.json");
        Path failure = dir.resolve("seed0-unshrunk.weftlog");
        Reproducer.record(failure, config.seedStart(), config.net(), WorkloadGenerator.generate(config.workload()),
                config.invariants(), "seed 0 unshrunk");
        Path repro = fuzz.resolve("demo-out/repro-seed0-per-channel-fifo-on-127-0-0-1-100-127-0-0-2-100.weftlog");
        ui.open(robot, failure, 0);
        CompareViewModel c = compare(robot, repro);
        int expected = firstDifferingLine(failure, repro);
        assertEquals(expected, c.divergenceOpAProperty().get());
        // The cursors go to what a node saw differently first (or the record divergence when no node did).
        int effect = c.effectOpAProperty().get();
        assertEquals(effect >= 0 ? effect : expected, c.a().cursor());
        assertTrue(c.resultProperty().get().b().ops() < c.resultProperty().get().a().ops(), "the reproducer is smaller");
        assertTrue(c.resultProperty().get().b().violations() > 0, "and still fails");
        ui.screenshot(robot, "compare-fuzz-failure-vs-reproducer");
    }

    @Test
    void severalFilesOpenInTabsAndClosingATabClosesItsRecording(FxRobot robot) throws Exception {
        Path a = SharedCorpus.conformance().resolve("pingpong/pp-uniform1000-50000-s99.weftlog");
        Path b = SharedCorpus.conformance().resolve("pingpong/pp-uniform1000-50000-s99.weftlog.gz");
        Path p = SharedCorpus.conformance().resolve("pingpong/pp-loss0.1-s4.weftlog");
        // As a drop of three files does: each opens in its own tab, one after the other.
        robot.interact(() -> ui.window.openAll(List.of(a, b, p)));
        for (int i = 0; i < 200 && ui.window.tabs().tabs().size() < 3; i++) {
            ui.settle();
        }
        ui.settle();
        List<OpenTabs.Tab> tabs = ui.window.tabs().tabs();
        assertEquals(3, tabs.size(), tabs.toString());
        assertEquals(List.of(a.getFileName().toString(), b.getFileName().toString(), p.getFileName().toString()),
                ui.window.tabBar().getTabs().stream().map(t -> t.getText()).toList());
        ui.screenshot(robot, "tabs-three-recordings");
        DocumentViewModel first = ((OpenTabs.DocumentTab) tabs.get(0)).document();
        robot.interact(() -> ui.window.tabBar().getSelectionModel().select(0));
        ui.settle();
        assertSame(first, ui.vm.document(), "selecting a tab makes its recording the current one");
        assertSame(first, ui.window.documentPane().document());
        robot.interact(() -> ui.window.tabs().close(tabs.get(0)));
        ui.settle();
        assertEquals(2, ui.window.tabBar().getTabs().size());
        assertEquals(b.getFileName().toString(), ui.vm.document().path().getFileName().toString());
    }
}
