package dev.weft.launcher.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.launcher.WeftCli;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.replay.ScriptedRecording;
import dev.weft.tcp.TcpNetwork;
import dev.weft.testsupport.CapturedRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft replay --check stream} on a TCP recording: identical when honest, a divergence line when edited. */
class TcpReplayCommandTest {

    @TempDir
    Path dir;

    /** A request and its echo over one stream; {@code corrupt} changes the first byte the server reads. */
    private Path record(boolean corrupt) throws Exception {
        Path log = dir.resolve(corrupt ? "bad.weftlog" : "tcp.weftlog");
        String net = "latency=uniform:1000000-3000000,loss=0.3";
        Core core = new Core(FaultModel.of(9, net));
        try (LogWriter w = LogWriter.create(log, 9, net, 0, LogMeta.EMPTY)) {
            ScriptedRecording script = new ScriptedRecording(core, w);
            script.openStream(VAddr.ofNode(1, 7000), 0);
            for (int i = 0; i < 20; i++) {
                script.write(ScriptedRecording.CLIENT, new byte[] {(byte) i, 1, 2}, 10_000_000L * (i + 1));
                if (!corrupt || i != 5) {
                    script.read(ScriptedRecording.SERVER_END, 100);
                    continue;
                }
                TcpNetwork.ReadResult rd = core.tcp().read(ScriptedRecording.SERVER_END, 100, false, TcpNetwork.ALL);
                TcpRecvOutcome out = rd.outcome();
                if (out instanceof TcpRecvOutcome.Data d) {
                    out = new TcpRecvOutcome.Data(d.offset(), d.delivNs(), "ff" + d.payload().substring(2));
                }
                script.record(new Event.TcpRecv(ScriptedRecording.SERVER_END, rd.sid(), 100, false, true, out));
            }
            script.record(new Event.End(47, 0, 0));
        }
        return log;
    }

    private static CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    @Test
    void anHonestTcpRecordingReplaysIdenticallyWithTheStreamCheck() throws Exception {
        CapturedRun r = weft("replay", record(false).toString(), "--check", "stream");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("replay identical: 47 op(s), stream digest "), r.out());
    }

    @Test
    void anEditedReadIsADivergenceAtItsOp() throws Exception {
        CapturedRun r = weft("replay", record(true).toString(), "--check", "stream");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("weft replay: DIVERGED at op 17\n"), r.err());
        assertTrue(r.err().contains("\"payload\":\"ff0102\"") && r.err().contains("\"payload\":\"050102\""), r.err());
    }
}
