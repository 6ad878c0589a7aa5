package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.HistoryLaneViewModel;
import dev.weft.findings.Finding;
import dev.weft.findings.FindingKind;
import dev.weft.log.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import javafx.scene.control.TreeTableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * Issue 31's last acceptance item: the shrunk hit of the Redis failover study (examples/recordings/redis-lost-write,
 * a committed windowed run under the one fault shrinking kept, the partition at 15 s) opens in the workbench on the
 * lost write's finding. The history checker's finding is the Findings list's first (a verdict about the program), the
 * violation bar names the acknowledged add that the final read misses, and the History tab has the same finding
 * selected, with the add's row on client 0's lane.
 */
@ExtendWith(ApplicationExtension.class)
class RedisLostWriteUiTest {

    /** What `weft check history lost-write.history.jsonl --model set` says of the fixture. */
    private static final String LOST = "add 84 acknowledged at t=20753227109 ns, then a read invoked at t=22002900336 ns"
            + " does not contain 84";
    private static final long PARTITION_NS = 15_000_000_000L;

    @RegisterExtension
    final UiHarness ui = harness();

    /** The window this class's test drives (a subclass drives a smaller one). */
    UiHarness harness() {
        return UiHarness.onRecordings();
    }

    /** The prefix of the screenshots this class saves. */
    String shots() {
        return "redis-lost-write";
    }

    @Test
    void opensOnTheLostWriteFinding(FxRobot robot, @TempDir Path dir) throws Exception {
        walkToTheLostWrite(robot, dir, shots());
    }

    private void walkToTheLostWrite(FxRobot robot, Path dir, String shots) throws Exception {
        Path log = fixture(dir);
        // opened as UiHarness.open does, with more patience: the machine these tests run on is shared and loaded
        CompletableFuture<DocumentViewModel> ready = new CompletableFuture<>();
        robot.interact(() -> ui.window.open(log, null, ready::complete));
        DocumentViewModel doc = ready.get(300, TimeUnit.SECONDS);
        ui.settle();

        // The recording opens on its most severe finding: the history's lost write, placed where the read that
        // misses it went out: client 2's (node 8) SMEMBERS, written at the read's invocation time. (The first op
        // recorded after that time is seconds of program time away: a windowed run records TCP ops as their windows
        // are sealed, and the cut-off side holds them back.)
        Finding top = doc.findings().get(0);
        assertEquals(FindingKind.HISTORY, top.kind(), doc.findings().toString());
        assertEquals("history:set", top.invariant());
        assertTrue(top.message().contains(LOST), top.message());
        assertEquals(top.op(), doc.cursor(), "opens on the lost write's finding");
        Event.TcpSend read = (Event.TcpSend) doc.source().record((int) top.op()).event();
        assertTrue(read.payload().contains(hex("SMEMBERS")), read.payload());
        assertEquals(22_002_903_336L, read.sendVt(), "the read's request, written 3 µs after the read was invoked");
        assertEquals("node 8", doc.timeline().lanes().get(doc.timeline().lane((int) top.op())).label());
        assertEquals("history:set", text(robot, "#violationBarName"));
        assertTrue(text(robot, "#violationBarPosition").startsWith("violation 1 of "), text(robot, "#violationBarPosition"));
        assertTrue(text(robot, "#violationBarText").startsWith("The clients' history breaks the set model, seen at op "
                + top.op()), text(robot, "#violationBarText"));
        assertTrue(text(robot, "#violationBarText").contains(LOST), text(robot, "#violationBarText"));
        // The verdict tile counts it like any verdict about the program: VIOLATED, not CLEAN beside a violation bar.
        assertEquals("VIOLATED", text(robot, "#verdictValue"));
        assertEquals("1 violation(s): history:set ×1", text(robot, "#verdictDetail"));
        assertTrue(robot.lookup("#verdictTile").query().getStyleClass().contains("tile-warn"),
                robot.lookup("#verdictTile").query().getStyleClass().toString());

        // The Findings tab: a history group, its finding selected, in plain words.
        robot.clickOn("Findings");
        ui.settle();
        TreeTableView<?> list = robot.lookup("#findingsList").queryAs(TreeTableView.class);
        assertEquals("history (1)", list.getRoot().getChildren().get(0).getValue().toString());
        int selected = list.getSelectionModel().getSelectedIndex();
        assertTrue(selected > 0, "a finding is selected under its group");
        assertEquals("#1", list.getColumns().get(0).getCellData(selected));
        assertEquals(Long.toString(top.op()), list.getColumns().get(1).getCellData(selected));
        assertTrue(((String) list.getColumns().get(2).getCellData(selected)).contains(LOST));
        assertEquals("history:set", list.getColumns().get(3).getCellData(selected));
        ui.screenshot(robot, shots + "-findings");

        // The History tab: the same finding selected, the lost add on client 0's row (node 6), acknowledged by the
        // old primary after the partition cut it and client 0 off, and marked as the finding's.
        robot.clickOn("History");
        ui.settle();
        assertEquals("lost-write.history.jsonl · model set · VIOLATION — 1 object not linearizable",
                text(robot, "#historyVerdict"));
        ListView<?> findings = robot.lookup("#historyFindings").queryAs(ListView.class);
        assertEquals(1, findings.getItems().size());
        assertEquals(0, findings.getSelectionModel().getSelectedIndex(), "the Findings tab's choice is the History tab's");
        HistoryLaneViewModel history = doc.history();
        HistoryLaneViewModel.Row lost = history.rows().stream().filter(r -> r.what().equals("add 84")).findFirst()
                .orElse(null);
        assertNotNull(lost, "the lost add is an operation of the lane");
        assertEquals("node 6 process 0", history.clients().get(lost.client()));
        assertEquals(0, lost.finding(), "the lost add belongs to the finding");
        assertEquals(20_753_227_109L, lost.op().completeTime());
        assertTrue(lost.op().invokeTime() > PARTITION_NS, "acknowledged while cut off");
        TableView<?> ops = robot.lookup("#historyOps").queryAs(TableView.class);
        int row = ops.getItems().indexOf(lost);
        assertEquals("add 84", ops.getColumns().get(1).getCellData(row));
        assertEquals("20753227109", ops.getColumns().get(3).getCellData(row));
        assertEquals("✗ 1", ops.getColumns().get(5).getCellData(row), "named by the finding");
        assertEquals(2, history.rowsOf(0).stream().filter(HistoryLaneViewModel.Row::named).count(),
                "the finding names the lost add and the read; the other adds of its sub-history are only part of it");
        ui.screenshot(robot, shots + "-history");
        assertTrue(ops.lookupAll(".table-row-cell").stream().anyMatch(n -> n instanceof javafx.scene.control.TableRow<?> t
                && t.getItem() == lost && t.isVisible()), "the table shows the finding's lost add");

        // Choosing the lost add's row puts the cursor on the recording's op where it was invoked.
        robot.interact(() -> {
            ops.getSelectionModel().select(row);
            ops.scrollTo(Math.max(0, row - 1));
        });
        ui.settle();
        assertEquals(lost.logOp(), doc.cursor());
        Event.TcpSend add = (Event.TcpSend) doc.source().record(doc.cursor()).event();
        assertEquals(hex("*3\r\n$4\r\nSADD\r\n$10\r\nweft-study\r\n$2\r\n84\r\n"), add.payload(),
                "client 0's request to the old primary");
        assertEquals("node 6", doc.timeline().lanes().get(doc.timeline().lane(doc.cursor())).label());
        ui.screenshot(robot, shots + "-history-add");
    }

    private static String hex(String ascii) {
        return dev.weft.text.Hex.encodeLower(ascii.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    private static String text(FxRobot robot, String id) {
        return robot.lookup(id).queryAs(Label.class).getText();
    }

    /** The committed fixture, copied with its history (the workbench may write beside what it opens). */
    private static Path fixture(Path dir) throws Exception {
        Path here = Path.of("").toAbsolutePath();
        Path from = here.resolve("examples/recordings/redis-lost-write");
        while (!Files.isDirectory(from) && here.getParent() != null) {
            here = here.getParent();
            from = here.resolve("examples/recordings/redis-lost-write");
        }
        for (String name : new String[] {"lost-write.weftlog.gz", "lost-write.history.jsonl"}) {
            Files.copy(from.resolve(name), dir.resolve(name));
        }
        return dir.resolve("lost-write.weftlog.gz");
    }
}
