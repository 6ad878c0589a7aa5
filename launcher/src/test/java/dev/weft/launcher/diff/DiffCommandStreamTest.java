package dev.weft.launcher.diff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.replay.ScriptedRecording;
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
        try (LogWriter w = LogWriter.create(log, 5, NET, 0, LogMeta.EMPTY)) {
            for (long conn = 1; conn <= 3; conn++) {
                core.connect(conn);
                w.append(core.vt(), new Event.Connect(conn));
                w.append(core.vt(), new Event.Hello(conn, conn == 2 ? 0 : 1));
            }
            ScriptedRecording script = new ScriptedRecording(core, w);
            script.openStream(VAddr.ofNode(1, 80), 1_000_000);
            script.write(ScriptedRecording.CLIENT, request.getBytes(StandardCharsets.US_ASCII), 5_000_000);
            script.read(ScriptedRecording.SERVER_END, 4096);
        }
        return log;
    }
}
