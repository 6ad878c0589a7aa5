package dev.weft.app.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.app.vm.DocumentViewModel;
import dev.weft.app.vm.StateViewModel;
import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.tcp.TcpNetwork;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;

/**
 * A recorded TCP run in the workbench: a Redis-like server on node 1, a client on node 0 sends a RESP PING, the
 * server reads it and answers +PONG, still in flight (1 ms latency) at the last op. The state panel lists the listener and the
 * stream with the reply's 7 bytes in flight; the Inspector reads the request as RESP text.
 */
@ExtendWith(ApplicationExtension.class)
class TcpWorkbenchUiTest {

    private static final String NET = "latency=fixed:1000000";
    @RegisterExtension
    final UiHarness ui = UiHarness.onRecordings();

    @Test
    void theStatePanelShowsTheStreamAndTheInspectorReadsRespText(FxRobot robot, @TempDir Path dir) throws Exception {
        Path log = dir.resolve("redis.weftlog");
        List<Event> events = record(log);
        // opened as UiHarness.open does, with more patience: the machine these tests run on is shared and loaded
        java.util.concurrent.CompletableFuture<DocumentViewModel> ready = new java.util.concurrent.CompletableFuture<>();
        robot.interact(() -> ui.window.open(log, null, ready::complete));
        DocumentViewModel doc = ready.get(300, java.util.concurrent.TimeUnit.SECONDS);
        ui.settle();
        int read = events.size() - 2;   // the server's read of the PING; the reply is sent after it
        assertTrue(events.get(read) instanceof Event.TcpRecv, events.get(read).toString());
        int last = events.size() - 1;
        // On the timeline: TCP marks on the nodes' lanes, the ext record on the run lane (no lane for conn 2^64-1),
        // and the server's read linked to the client's write of the PING.
        dev.weft.timeline.TimelineModel tm = doc.timeline();
        assertEquals(List.of("node 0", "node 1", "run"), tm.lanes().stream().map(l -> l.label()).toList());
        assertEquals(dev.weft.timeline.MarkKind.TCP_RECV, tm.kind(read));
        assertEquals(dev.weft.timeline.MarkKind.TCP_SEND, tm.kind(read - 1));
        assertEquals(read - 1, tm.partner(read), "the read takes the bytes of the write before it");
        assertEquals(1, tm.lane(read), "the server's read is on node 1");
        robot.interact(() -> ui.window.documentPane().timeline().fitAll());
        ui.settle();
        ui.screenshot(robot, "tcp-timeline");
        // The ops table says what a record about the run is: the ext record is "ext", not "end".
        int ext = events.indexOf(new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION));
        TableView<?> ops = robot.lookup("#eventTable").queryAs(TableView.class);
        int extRow = ops.getItems().indexOf(ext);
        assertEquals("ext", ops.getColumns().get(3).getCellData(extRow));
        assertEquals("tcp write", ops.getColumns().get(3).getCellData(ops.getItems().indexOf(read - 1)));

        robot.interact(() -> doc.cursorProperty().set(last));
        ui.settle();
        robot.clickOn("State");
        ui.settle();
        TableView<?> table = robot.lookup("#stateTable").queryAs(TableView.class);
        List<String> rows = new ArrayList<>();
        for (Object o : table.getItems()) {
            StateViewModel.Row r = (StateViewModel.Row) o;
            rows.add(r.section() + " | " + r.key() + " | " + r.detail() + " | " + r.change());
        }
        assertTrue(rows.contains("listener | 127.0.0.2:6379 | listening, conn 1, backlog 16 | SAME"), rows.toString());
        assertTrue(rows.contains("tcp | sid 0  established | conn 2 127.0.0.1:40000 \u2194 conn 3 127.0.0.2:6379 | SAME"),
                rows.toString());
        assertTrue(rows.contains("tcp \u2192 | sid 0  connector \u2192 acceptor | 14 B written, 0 in flight, 0 unread | SAME"),
                rows.toString());
        assertTrue(rows.contains("tcp \u2190 | sid 0  acceptor \u2192 connector | 7 B written, 7 in flight, 0 unread | CHANGED"),
                rows.toString());
        ui.screenshot(robot, "tcp-state-panel");

        robot.interact(() -> doc.selectionProperty().set(read));
        robot.clickOn("Inspector");
        ui.settle();
        Label decoded = robot.lookup("#inspectorDecoded").queryAs(Label.class);
        assertEquals("stream bytes: 14 B RESP (Redis)\n*1\\r\n$4\\r\nPING\\r\n", decoded.getText());
        ui.screenshot(robot, "tcp-inspector-resp");
    }

    /** Records the run the way the broker does: apply to a core, record the outcome with the core's vt after it. */
    private static List<Event> record(Path log) throws Exception {
        Core core = new Core(FaultModel.of(3, NET));
        TcpNetwork tcp = core.tcp();
        List<Event> out = new ArrayList<>();
        try (LogWriter w = LogWriter.create(log, 3, NET, 0, LogMeta.EMPTY)) {
            Recorder rec = e -> {
                out.add(e);
                w.append(core.vt(), e);
            };
            for (long conn = 1; conn <= 3; conn++) {
                core.connect(conn);
                rec.add(new Event.Connect(conn));
                rec.add(new Event.Hello(conn, conn == 2 ? 0 : 1));
            }
            VAddr server = VAddr.ofNode(1, 6379);
            rec.add(new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION));
            rec.add(new Event.TcpBind(1, tcp.bind(1, server)));
            tcp.listen(1, 16);
            rec.add(new Event.TcpListen(1, 16));
            TcpNetwork.ConnectResult c = tcp.connect(2, VAddr.ofNode(0, 0).ip(), server, 1_000_000);
            rec.add(new Event.TcpConnect(2, c.sid(), c.src(), server, 1_000_000, c.outcome()));
            rec.add(new Event.TcpAccept(1, true, tcp.accept(1, TcpNetwork.ALL)));
            tcp.adopt(3, c.sid());
            rec.add(new Event.TcpAdopt(3, c.sid()));
            send(core, rec, 2, "*1\r\n$4\r\nPING\r\n", 5_000_000);
            TcpNetwork.ReadResult r = tcp.read(3, 4096, false, TcpNetwork.ALL);
            rec.add(new Event.TcpRecv(3, r.sid(), 4096, false, true, r.outcome()));
            send(core, rec, 3, "+PONG\r\n", 9_000_000);
        }
        return out;
    }

    private static void send(Core core, Recorder rec, long conn, String text, long at) throws Exception {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        TcpNetwork.WriteResult r = core.tcp().write(conn, b, at);
        rec.add(new Event.TcpSend(conn, r.sid(), r.offset(), at,
                dev.weft.text.Hex.encodeLower(java.util.Arrays.copyOf(b, r.accepted())), r.outcome()));
    }

    private interface Recorder {
        void add(Event e) throws Exception;
    }
}
