package dev.weft.launcher.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.tcp.TcpNetwork;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** weft diff of two TCP recordings whose request bytes differ prints the first stream divergence. */
class DiffCommandStreamTest {

    private static final String NET = "latency=fixed:1000000";

    @TempDir
    Path dir;

    @Test
    void twoRecordingsThatSentDifferentBytesNameTheNodeSidOffsetAndBytes() throws Exception {
        Path a = record("a.weftlog", "GET /a HTTP/1.0\r\n\r\n");
        Path b = record("b.weftlog", "GET /b HTTP/1.0\r\n\r\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int code = DiffCommand.run(new String[] {a.toString(), b.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(2, code, text + err);
        assertTrue(text.contains("first stream divergence: node 1, sid 0, offset 5\n"
                + "  A: op 13 read \"a HTTP/1.0\\r\\n\\r\\n\" (6120485454502f312e300d0a0d0a)\n"
                + "  B: op 13 read \"b HTTP/1.0\\r\\n\\r\\n\" (6220485454502f312e300d0a0d0a)\n"), text);

        ByteArrayOutputStream same = new ByteArrayOutputStream();
        assertEquals(0, DiffCommand.run(new String[] {a.toString(), a.toString()}, new PrintStream(same, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(!same.toString(StandardCharsets.UTF_8).contains("stream divergence"));
    }

    /** Node 0 connects to node 1's port 80 and sends {@code request}; node 1 reads it (recorded as the broker does). */
    private Path record(String name, String request) throws Exception {
        Path log = dir.resolve(name);
        Core core = new Core(FaultModel.of(5, NET));
        TcpNetwork tcp = core.tcp();
        try (LogWriter w = LogWriter.create(log, 5, NET, 0, LogMeta.EMPTY)) {
            for (long conn = 1; conn <= 3; conn++) {
                core.connect(conn);
                w.append(core.vt(), new Event.Connect(conn));
                w.append(core.vt(), new Event.Hello(conn, conn == 2 ? 0 : 1));
            }
            VAddr server = VAddr.ofNode(1, 80);
            w.append(core.vt(), new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION));
            w.append(core.vt(), new Event.TcpBind(1, tcp.bind(1, server)));
            tcp.listen(1, 4);
            w.append(core.vt(), new Event.TcpListen(1, 4));
            TcpNetwork.ConnectResult c = tcp.connect(2, VAddr.ofNode(0, 0).ip(), server, 1_000_000);
            w.append(core.vt(), new Event.TcpConnect(2, c.sid(), c.src(), server, 1_000_000, c.outcome()));
            w.append(core.vt(), new Event.TcpAccept(1, true, tcp.accept(1, TcpNetwork.ALL)));
            tcp.adopt(3, c.sid());
            w.append(core.vt(), new Event.TcpAdopt(3, c.sid()));
            byte[] bytes = request.getBytes(StandardCharsets.US_ASCII);
            TcpNetwork.WriteResult wr = tcp.write(2, bytes, 5_000_000);
            w.append(core.vt(), new Event.TcpSend(2, wr.sid(), wr.offset(), 5_000_000,
                    dev.weft.text.Hex.encodeLower(java.util.Arrays.copyOf(bytes, wr.accepted())), wr.outcome()));
            TcpNetwork.ReadResult r = tcp.read(3, 4096, false, TcpNetwork.ALL);
            w.append(core.vt(), new Event.TcpRecv(3, r.sid(), 4096, false, true, r.outcome()));
        }
        return log;
    }
}
