package dev.weft.launcher.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.launcher.WeftCli;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.replay.ScriptedRecording;
import dev.weft.testsupport.CapturedRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft state} of a TCP recording shows listeners and streams; a UDP-only state prints no TCP lines. */
class TcpStateCommandTest {

    @TempDir
    Path dir;

    /** Node 1 listens on :80; node 0 connects (sid 0), the listener accepts and conn 3 adopts; 5 bytes go out. */
    private Path record() throws Exception {
        Path log = dir.resolve("tcp.weftlog");
        String net = "latency=fixed:1000000";
        Core core = new Core(FaultModel.of(1, net));
        try (LogWriter w = LogWriter.create(log, 1, net, 0, LogMeta.EMPTY)) {
            ScriptedRecording script = new ScriptedRecording(core, w);
            script.openStream(VAddr.ofNode(1, 80), 0);
            script.write(ScriptedRecording.CLIENT, "hello".getBytes(StandardCharsets.US_ASCII), 5_000_000);
        }
        return log;
    }

    @Test
    void listenersAndStreamsAreShownWithTheirBytes() throws Exception {
        Path log = record();
        CapturedRun r = CapturedRun.of((o, e) -> WeftCli.run(new String[] {"state", log.toString(), "--at", "2", "--at", "6"}, o, e));
        assertEquals(0, r.code(), r.err());
        String[] parts = r.out().split("state after op 6", 2);
        assertTrue(parts[0].contains("  tcp listeners:\n    127.0.0.2:80 (conn 1, backlog 4): 0 not accepted\n"), parts[0]);
        assertTrue(parts[0].contains("  tcp connections (bytes as of vt 0 ns): none\n"), parts[0]);
        assertTrue(parts[1].contains("    sid 0 established  127.0.0.1:40000 (conn 2) \u21c4 127.0.0.2:80 (conn 3)\n"
                + "      \u2192 written 5, read 0, in flight 5, unread 0\n"
                + "      \u2190 written 0, read 0, in flight 0, unread 0\n"), parts[1]);
    }

    @Test
    void aUdpOnlyStateHasNoTcpLines() throws Exception {
        String vector = Path.of(getClass().getResource("/spec-12-seed3.weftlog").toURI()).toString();
        CapturedRun r = CapturedRun.of((o, e) -> WeftCli.run(new String[] {"state", vector, "--at", "9"}, o, e));
        assertEquals(0, r.code(), r.err());
        assertFalse(r.out().contains("tcp"), r.out());
    }
}
