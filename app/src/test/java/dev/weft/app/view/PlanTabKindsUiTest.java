package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.source.PlanBeside;
import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.PlanViewModel;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.replay.PlanExtractor;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * The Plan tab lists every deviation a version-2 plan holds, not only datagram fates: TCP segments (direction, index,
 * lost attempts, latency) and timed events (what, when, the first op at or after it, which a click jumps to). At
 * 1024×700, the smallest window the workbench is laid out for.
 */
@ExtendWith(ApplicationExtension.class)
class PlanTabKindsUiTest {

    @TempDir
    Path dir;

    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings(1024, 700);

    /** The first op whose vt is at or after t, read here from the log (not by the code under test). */
    private static long firstOpAtOrAfter(Path log, long t) throws Exception {
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                if (rec.vt() >= t) return rec.op();
            }
        }
        return -1;
    }

    private static long vtOf(Path log, long op) throws Exception {
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) {
                if (rec.op() == op) return rec.vt();
            }
        }
        throw new AssertionError("no op " + op);
    }

    @Test
    void segmentsAndEventsAreListedBesideTheDatagramsAndAnEventRowJumpsToItsOp(FxRobot robot) throws Exception {
        Path log = dir.resolve("chord.weftlog");
        Files.copy(dev.weft.testcorpus.OwnCorpus.dir().resolve("chord/chord-fix0-s3-violation.weftlog"), log);
        FaultPlan followed;
        try (LogReader r = LogReader.open(log)) {
            followed = PlanExtractor.extract(r);
        }
        // three of its datagrams: two delays as recorded, the third dropped
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        for (FaultPlan.Deviation d : followed.deviations().subList(0, 3)) {
            named.put(d.id(), named.size() < 2 ? d.fate() : new FaultModel.Fate(true, 0));
        }
        // two segments of a connection this UDP run never had: its handshake late, a reply's third segment lost twice
        VAddr client = VAddr.ofNode(0, 40000), server = VAddr.ofNode(1, 7000);
        Map<FaultPlan.SegmentId, FaultPlan.SegmentTrip> segments = Map.of(
                new FaultPlan.SegmentId(client, server, 0), new FaultPlan.SegmentTrip(0, 25_000),
                new FaultPlan.SegmentId(server, client, 3), new FaultPlan.SegmentTrip(2, 4_000));
        // a partition inside the run (just after op 100's time) and a heal after its end
        long partitionAt = vtOf(log, 100) + 1;
        long partitionOp = firstOpAtOrAfter(log, partitionAt);
        assertTrue(partitionOp > 100, "op " + partitionOp);
        List<ScenarioEvent> events = List.of(
                new ScenarioEvent(partitionAt, new ScenarioAction.ActivatePartition("0+6|1+2")),
                new ScenarioEvent(1_000_000_000_000L, new ScenarioAction.ClearPartition()));
        Files.writeString(PlanBeside.sidecarOf(log),
                FaultPlanJson.write(new FaultPlan(followed.net(), followed.spec(), named, segments, events)));

        DocumentViewModel doc = ui.open(robot, log, null);
        ui.settle();
        TableView<PlanViewModel.Row> table = ui.window.documentPane().planTable();
        String summary = robot.lookup("#planSummary").queryLabeled().getText();
        assertTrue(summary.startsWith("chord.weftlog.plan.json: 7 deviations from the baseline "
                + "(1 drop, 2 delays, 2 TCP segments, 2 events)"), summary);
        List<PlanViewModel.Row> rows = List.copyOf(table.getItems());
        assertEquals(List.of("delay", "delay", "drop", "tcp", "tcp", "event", "event"),
                rows.stream().map(PlanViewModel.Row::kind).toList());

        // segments in (from, to, index) order: the client's handshake, then the server's third segment
        PlanViewModel.Row handshake = rows.get(3), lost = rows.get(4);
        assertEquals(List.of("127.0.0.1:40000 → 127.0.0.2:7000", "0", "after 25 µs"),
                List.of(handshake.channel(), handshake.seq(), handshake.fate()));
        assertEquals(List.of("127.0.0.2:7000 → 127.0.0.1:40000", "3", "2 lost, then after 4 µs"),
                List.of(lost.channel(), lost.seq(), lost.fate()));
        assertTrue(handshake.tip().contains("(the handshake)"), handshake.tip());
        assertEquals(-1, lost.op(), "a segment is not placed on an op");

        PlanViewModel.Row partition = rows.get(5), heal = rows.get(6);
        assertEquals(List.of("partition 0+6|1+2", "", "op " + partitionOp), List.of(partition.channel(), partition.seq(),
                partition.sentAt()));
        assertTrue(partition.fate().startsWith("at ") && partition.fate().endsWith("s"), partition.fate());
        assertEquals(List.of("heal", "at 1000 s", "not reached"), List.of(heal.channel(), heal.fate(), heal.sentAt()));
        assertTrue(java.util.Arrays.stream(ui.window.timeline().planMarksProperty().get()).anyMatch(m -> m == partitionOp),
                "the partition is marked on the ruler");

        robot.interact(() -> table.getSelectionModel().select(5));
        ui.settle();
        assertEquals(partitionOp, doc.cursor(), "the partition's row jumps to the first op at or after it");
        ui.screenshot(robot, "plan-tab-kinds");
    }
}
