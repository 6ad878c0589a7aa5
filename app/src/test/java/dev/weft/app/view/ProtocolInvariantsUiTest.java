package dev.weft.app.view;

import dev.weft.launcher.run.RunCommand;
import dev.weft.testsupport.CapturedRun;
import dev.weft.testsupport.NativeBuild;
import dev.weft.testcorpus.SharedCorpus;
import dev.weft.app.source.ViolationInfo;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.chord.ChordCheck;
import dev.weft.chord.ChordCheckResult;
import dev.weft.chord.ChordViolation;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.raft.RaftCheck;
import dev.weft.raft.RaftCheckResult;
import dev.weft.timeline.chord.ChordRingView;
import dev.weft.timeline.raft.RaftTermsView;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The protocol bug on screen (issue: the workbench, part 2): on the corpus' failing Chord and Raft runs the
 * Invariants panel lists what `weft check` reports, jumping there puts the cursor on the checker's op, and
 * the ring / terms view marks the offenders at that op (view model and pixels). A Chord run recorded just now by our
 * own broker and shim shows its unrepaired ring the same way.
 */
@ExtendWith(ApplicationExtension.class)
class ProtocolInvariantsUiTest {

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    private static List<LogRecord> records(Path log) throws Exception {
        List<LogRecord> out = new ArrayList<>();
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) out.add(rec);
        }
        return out;
    }

    private static List<ViolationInfo> of(DocumentViewModel doc, String invariant) {
        return doc.violations().stream().filter(v -> v.invariant().equals(invariant)).toList();
    }

    /** Clicks the violation's row in the Invariants tab, as a person would. */
    private void jumpVia(FxRobot robot, DocumentViewModel doc, ViolationInfo v) throws Exception {
        robot.clickOn("Invariants");
        ui.settle();
        TableView<?> table = robot.lookup("#violationTable").queryAs(TableView.class);
        int row = doc.violations().indexOf(v);
        robot.interact(() -> {
            table.scrollTo(row);
            table.getSelectionModel().clearAndSelect(row);
        });
        ui.settle();
    }

    /** Red pixels (the offender colour) within radius of (x, y) in a snapshot of the node. */
    private static int redPixelsNear(WritableImage img, double x, double y, double radius) {
        PixelReader px = img.getPixelReader();
        int red = 0;
        for (int dx = (int) -radius; dx <= radius; dx++) {
            for (int dy = (int) -radius; dy <= radius; dy++) {
                int ix = (int) x + dx, iy = (int) y + dy;
                if (ix < 0 || iy < 0 || ix >= img.getWidth() || iy >= img.getHeight()) continue;
                Color c = px.getColor(ix, iy);
                if (c.getRed() > 0.75 && c.getGreen() < 0.35 && c.getBlue() < 0.35) red++;
            }
        }
        return red;
    }

    @Test
    void chordConnectedAppendagesIsListedJumpedToAndOutlinedOnTheRing(FxRobot robot) throws Exception {
        Path log = SharedCorpus.conformance().resolve("chord/chord-fix0-s2-violation.weftlog");
        ChordCheckResult check = ChordCheck.check(records(log), 6);   // what `weft check chord LOG 6` prints
        assertEquals(ChordCheckResult.EXIT_VIOLATION, check.exitCode());
        DocumentViewModel doc = ui.open(robot, log, null);

        // Same verdict: the same invariants with the same details, nothing more.
        List<String> expected = check.violations().stream().map(v -> v.invariant() + ": " + v.detail()).toList();
        List<String> listed = doc.violations().stream().filter(v -> doc.protocol().names().contains(v.invariant()))
                .map(v -> v.invariant() + ": " + v.message()).toList();
        assertEquals(expected, listed);
        assertEquals("ConnectedAppendages: appendage member 22 cannot reach the ring via best successors", listed.get(0));
        Label verdict = robot.lookup("#verdictValue").queryAs(Label.class);
        assertEquals("VIOLATED", verdict.getText());
        assertTrue(robot.lookup("#verdictDetail").queryAs(Label.class).getText().contains("chord check: VIOLATION"));

        // Jump: the cursor lands on the op after which the ring stayed broken (the checker's final state).
        ViolationInfo v = of(doc, "ConnectedAppendages").get(0);
        jumpVia(robot, doc, v);
        assertEquals(v.op(), doc.cursor());
        ChordViolation named = check.violations().get(0);
        assertTrue(((dev.weft.chord.ChordTimeline) doc.protocol().state()).violationsAt(v.op()).contains(named), "broken at the op jumped to");
        assertTrue(v.op() == 0 || !((dev.weft.chord.ChordTimeline) doc.protocol().state()).violationsAt(v.op() - 1).contains(named), "and not before it");

        // The violation bar names it, k of N, in plain words.
        assertTrue(robot.lookup("#violationBar").query().isVisible());
        assertEquals("ConnectedAppendages", robot.lookup("#violationBarName").queryAs(Label.class).getText());
        String pos = robot.lookup("#violationBarPosition").queryAs(Label.class).getText();
        assertTrue(pos.matches("violation \\d+ of " + doc.violations().size() + " · op " + v.op()), pos);
        assertTrue(robot.lookup("#violationBarText").queryAs(Label.class).getText().contains("Chord node 22"));

        // The ring view outlines node 22 at this op.
        robot.clickOn("Chord ring");
        ui.settle();
        ChordRingView ring = (ChordRingView) ui.window.documentPane().protocolView();
        assertTrue(ring.isVisible() && ring.getScene() != null, "the Chord ring tab is shown");
        ui.settle();
        var state = ring.state();
        assertEquals(v.op(), state.op());
        assertTrue(state.offenders().contains(22), "offenders: " + state.offenders());
        assertTrue(state.headline().startsWith("ConnectedAppendages broken at this op, and still at the end of the run"), state.headline());
        // Issue 26: the labels of close identifiers never overlap.
        var boxes = ring.labelBounds();
        assertEquals(state.nodes().size(), boxes.size());
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                double[] p = boxes.get(i), q = boxes.get(j);
                assertTrue(p[0] + p[2] <= q[0] || q[0] + q[2] <= p[0] || p[1] + p[3] <= q[1] || q[1] + q[3] <= p[1],
                        "labels " + i + " and " + j + " overlap");
            }
        }
        ui.screenshot(robot, "protocol-chord-connected-appendages");
        assertEquals("node 1", ring.nodeNamesProperty().get().apply(22), "Chord id 22 is the node on lane 'node 1'");
        String hover = ring.hoverText(22);
        assertTrue(hover.startsWith("Chord id 22 = node 1 at 127.0.0."), hover);
        assertTrue(hover.contains("appendage"), hover);
        double[] c = ring.nodeCentre(22);
        WritableImage[] img = new WritableImage[1];
        robot.interact(() -> img[0] = ring.snapshot(null, null));
        assertTrue(redPixelsNear(img[0], c[0], c[1], 14) > 20, "a red outline round node 22");
        double[] ok = ring.nodeCentre(1);   // a ring member: no outline
        assertTrue(redPixelsNear(img[0], ok[0], ok[1], 13) < 5, "no red round ring member 1");
    }

    @Test
    void raftElectionSafetyIsListedJumpedToAndBothLeadersOutlined(FxRobot robot) throws Exception {
        Path log = SharedCorpus.conformance().resolve("raft/raft-fix0-s131-violation.weftlog");
        RaftCheckResult check = RaftCheck.check(records(log));      // what `weft check raft LOG` prints
        assertEquals(RaftCheckResult.EXIT_VIOLATION, check.exitCode());
        DocumentViewModel doc = ui.open(robot, log, null);
        List<ViolationInfo> es = of(doc, "ElectionSafety");
        assertEquals(check.violations().size(), es.size());
        assertEquals(243, es.get(0).op(), "the second leader of term 1, as raft-check names it");
        assertEquals("term 1: leaders [2, 1] (second leader at op 243)", es.get(0).message());
        assertEquals("VIOLATED", robot.lookup("#verdictValue").queryAs(Label.class).getText());

        RaftTermsView terms = (RaftTermsView) ui.window.documentPane().protocolView();
        robot.interact(() -> doc.goTo(242));
        ui.settle();
        assertTrue(terms.violationsShown().isEmpty(), "no highlight before the second leader");
        TableView<?> list = robot.lookup("#violationTable").queryAs(TableView.class);
        assertEquals(doc.violationAtOrBeforeCursor(), list.getSelectionModel().getSelectedIndex(), "the Invariants list follows the cursor");
        assertTrue(doc.violations().get(list.getSelectionModel().getSelectedIndex()).op() <= 242);
        jumpVia(robot, doc, es.get(0));
        assertEquals(243, doc.cursor());
        assertEquals("Invariants", ui.window.documentPane().tabs().getSelectionModel().getSelectedItem().getText(),
                "the list stays where the jump came from");
        robot.interact(() -> ui.window.documentPane().tabs().getSelectionModel().select(0));
        robot.interact(() -> doc.goTo(242));
        robot.clickOn("#nextViolation");
        ui.settle();
        assertEquals(243, doc.cursor());
        assertEquals("Raft terms", ui.window.documentPane().tabs().getSelectionModel().getSelectedItem().getText(),
                "] to a protocol violation shows the protocol view");
        assertEquals("ElectionSafety", robot.lookup("#violationBarName").queryAs(Label.class).getText());
        robot.interact(() -> ui.window.documentPane().tabs().getSelectionModel().select(ui.window.documentPane().tabs().getTabs().size() - 1));
        ui.settle();
        robot.interact(() -> terms.requestLayout());
        ui.settle();
        assertEquals(1, terms.violationsShown().size());
        assertEquals(2, terms.highlightBoxes().size(), "both leaders of term 1 outlined");
        assertTrue(terms.headline().contains("term 1 has two leaders, 2 and 1"), terms.headline());
        ui.screenshot(robot, "protocol-raft-election-safety");
        WritableImage[] img = new WritableImage[1];
        robot.interact(() -> img[0] = terms.snapshot(null, null));
        for (double[] b : terms.highlightBoxes()) {
            assertTrue(redPixelsNear(img[0], b[0], b[1] + b[3] / 2, 2) > 2, "red outline at " + java.util.Arrays.toString(b));
        }
    }

    /**
     * A Chord recording made just now by our own broker and shim (examples/chord_node, 7 nodes, CHORD_FIX=0, seed 3: a
     * run the checker finds unrepaired) opens like any other, and its ring tab shows the members' final state. Needs
     * Linux and the shim-native build; skipped otherwise.
     */
    @Test
    void showsTheRingOfAFreshRecording(FxRobot robot, @TempDir Path dir) throws Exception {
        Path chord = NativeBuild.example("chord_node");
        Path shim = NativeBuild.shim();

        Path log = dir.resolve("chord-fix0-s3.weftlog");
        String err = record(List.of("--shim", shim.toString(), "--seed", "3", "--net", "latency=uniform:1000-60000",
                "--nodes", "7", "--watchdog", "30", "--record", log.toString(), "--", chord.toString(), "6", "45", "3"),
                Map.of("CHORD_NNODES", "7", "CHORD_FIX", "0"));

        DocumentViewModel doc = ui.open(robot, log, null);
        assertTrue(doc.size() > 1000, "records: " + doc.size() + "\n" + err);
        int last = doc.size() - 1;
        ui.goToByTyping(robot, doc, last);
        robot.clickOn("Chord ring");
        ui.settle();
        ChordRingView ring = robot.lookup(n -> n instanceof ChordRingView).queryAs(ChordRingView.class);
        assertTrue(ring.isVisible() && ring.getWidth() > 100, "the ring view is on screen");
        var state = ring.state().nodes();
        assertEquals(6, state.size(), "six members reported: " + state.keySet());
        assertEquals(3, state.values().stream().filter(r -> !r.alive()).count(), "the three appendages failed");
        ui.screenshot(robot, "fresh-chord-recording-ring");
    }

    /** weft run in this JVM, through its entry point with explicit streams. */
    private static String record(List<String> args, Map<String, String> extraEnv) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("WEFT_") || k.startsWith("CHORD_") || k.equals("LD_PRELOAD"));
        env.putAll(extraEnv);
        CapturedRun run = CapturedRun.of((o, e) -> RunCommand.run(args.toArray(String[]::new), env, o, e));
        assertEquals(0, run.code(), "weft run: " + run.err());
        return run.err();
    }
}
