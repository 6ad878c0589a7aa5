package dev.weft.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.tcp.TcpNetwork;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay of a recording whose accepts and reads had finite horizons (as the windowed broker answers them): the
 * horizons are not recorded, replay takes them from what each outcome proves, and empties are consistent with the
 * horizons earlier outcomes proved.
 */
class TcpWindowedReplayTest {

    static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private int emptyReads;

    private Path record(String name, UnaryOperator<Event> tamper) throws Exception {
        Path log = dir.resolve(name);
        String net = "latency=uniform:2000000-9000000,loss=0.25";
        Core core = new Core(FaultModel.of(21, net));
        TcpNetwork tcp = core.tcp();
        VAddr server = VAddr.ofNode(1, 5000);
        try (LogWriter w = LogWriter.create(log, 21, net, 1_000_000, LogMeta.EMPTY)) {
            java.util.function.Consumer<Event> rec = e -> {
                try {
                    w.append(core.vt(), tamper.apply(e));
                } catch (java.io.IOException ex) {
                    throw new java.io.UncheckedIOException(ex);
                }
            };
            rec.accept(new Event.Ext("tcp", 1));
            rec.accept(new Event.TcpBind(1, tcp.bind(1, server)));
            tcp.listen(1, 4);
            rec.accept(new Event.TcpListen(1, 4));
            TcpNetwork.ConnectResult c = tcp.connect(2, VAddr.ofNode(0, 0).ip(), server, MS);
            rec.accept(new Event.TcpConnect(2, c.sid(), c.src(), server, MS, c.outcome()));
            long horizon = MS;
            TcpAcceptOutcome a;
            while ((a = tcp.accept(1, horizon)) instanceof TcpAcceptOutcome.Empty) {
                rec.accept(new Event.TcpAccept(1, false, a));
                horizon += MS;
            }
            rec.accept(new Event.TcpAccept(1, false, a));
            tcp.adopt(3, c.sid());
            rec.accept(new Event.TcpAdopt(3, c.sid()));
            for (int i = 0; i < 30; i++) {
                long at = 20 * MS + i * 3 * MS;
                TcpNetwork.WriteResult r = tcp.write(2, new byte[] {(byte) i, (byte) (i * 7)}, at);
                rec.accept(new Event.TcpSend(2, r.sid(), r.offset(), at,
                        dev.weft.text.Hex.encodeLower(new byte[] {(byte) i, (byte) (i * 7)}), r.outcome()));
                // the server polls at its own pace, a little behind: some reads find nothing yet
                TcpNetwork.ReadResult rd = tcp.read(3, 3, i % 4 == 0, at + 2 * MS);
                if (rd.outcome() instanceof TcpRecvOutcome.Empty) emptyReads++;
                rec.accept(new Event.TcpRecv(3, rd.sid(), 3, i % 4 == 0, false, rd.outcome()));
            }
            tcp.shutdown(2, false, true);
            rec.accept(new Event.TcpShutdown(2, c.sid(), "wr"));
            for (TcpRecvOutcome o = null; !(o instanceof TcpRecvOutcome.Eof); ) {
                o = tcp.read(3, 64, false, TcpNetwork.ALL).outcome();
                rec.accept(new Event.TcpRecv(3, c.sid(), 64, false, true, o));
            }
        }
        return log;
    }

    @Test
    void finiteHorizonsReplayIdentically() throws Exception {
        Path log = record("w.weftlog", e -> e);
        assertTrue(emptyReads > 3, "the recording has empties: " + emptyReads);
        ReplayReport r = Replayer.replay(log, new ReplayOptions(null, java.util.List.of("stream")));
        assertNull(r.divergence(), () -> "diverged: " + r.divergence());
        assertEquals(java.util.List.of(), r.violations());
    }

    @Test
    void anEmptyReadAfterTheDataWasProvedArrivedDiverges() throws Exception {
        // Turning the final EOF into "empty" claims nothing had arrived by a horizon the earlier reads already proved
        // to be past every delivery: the model disagrees.
        Path log = record("e.weftlog", e -> e instanceof Event.TcpRecv rv && rv.outcome() instanceof TcpRecvOutcome.Eof
                ? new Event.TcpRecv(rv.conn(), rv.sid(), rv.max(), rv.peek(), rv.blocking(), TcpRecvOutcome.EMPTY) : e);
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertNotNull(r.divergence());
    }
}
