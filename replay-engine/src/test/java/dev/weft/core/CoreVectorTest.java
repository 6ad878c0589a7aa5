package dev.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import org.junit.jupiter.api.Test;

/** The 16-record vector of weft-log-v2.md §12 (seed 3, latency=uniform:1000-100000), driven op by op. */
class CoreVectorTest {

    private static final VAddr N0 = new VAddr(2130706433L, 100);
    private static final VAddr N1 = new VAddr(2130706434L, 100);
    private static final VAddr N0_999 = new VAddr(2130706433L, 999);

    @Test
    void conformanceVectorOutcomes() throws Exception {
        Core core = new Core(FaultModel.of(3, "latency=uniform:1000-100000"));
        core.connect(0);
        assertEquals(0, core.vt());
        core.bind(0, N0);
        core.connect(1);
        core.bind(1, N1);
        assertEquals(0, core.vt());

        assertEquals(new Core.SendResult(0, new SendOutcome.Enqueued(0, 39327, 0)), core.send(N1, N0, bytes("61"), 0));
        assertEquals(39327, core.vt());
        assertEquals(new Core.SendResult(1, new SendOutcome.Enqueued(0, 21403, 1)), core.send(N1, N0, bytes("62"), 0));
        assertEquals(39327, core.vt());
        assertEquals(new Core.SendResult(0, SendOutcome.NO_RECEIVER), core.send(N1, N0_999, bytes("78"), 0));
        assertEquals(new Core.SendResult(2, new SendOutcome.Enqueued(0, 11384, 2)), core.send(N1, N0, bytes("63"), 0));
        assertEquals(39327, core.vt());

        assertEquals(new RecvOutcome.Delivered(N1, N0, 11384, 2, "63"), core.recv(0));
        assertEquals(new RecvOutcome.Delivered(N1, N0, 21403, 1, "62"), core.recv(0));
        assertEquals(new RecvOutcome.Delivered(N1, N0, 39327, 0, "61"), core.recv(0));
        assertEquals(RecvOutcome.EMPTY, core.recv(0));
        core.disconnect(1);
        assertEquals(39327, core.vt());
        assertEquals(4, core.sent());
        assertEquals(0, core.dropped());
        assertEquals(3, core.tie());
    }

    static byte[] bytes(String hex) {
        return dev.weft.text.Hex.decode(hex);
    }
}
