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
        // Each step: the core operation of one record, then the record's vt (core vt after the op).
        core.connect(0);                                                                      // op 0
        assertEquals(0, core.vt());
        assertEquals(0, core.vt());                                                           // op 1 hello: no core op
        core.bind(0, N0);                                                                     // op 2
        assertEquals(0, core.vt());
        core.connect(1);                                                                      // op 3
        assertEquals(0, core.vt());
        assertEquals(0, core.vt());                                                           // op 4 hello
        core.bind(1, N1);                                                                     // op 5
        assertEquals(0, core.vt());

        assertEquals(new Core.SendResult(0, new SendOutcome.Enqueued(0, 39327, 0)), core.send(N1, N0, bytes("61"), 0));
        assertEquals(39327, core.vt());                                                       // op 6
        assertEquals(new Core.SendResult(1, new SendOutcome.Enqueued(0, 21403, 1)), core.send(N1, N0, bytes("62"), 0));
        assertEquals(39327, core.vt());                                                       // op 7
        assertEquals(new Core.SendResult(0, SendOutcome.NO_RECEIVER), core.send(N1, N0_999, bytes("78"), 0));
        assertEquals(39327, core.vt());                                                       // op 8
        assertEquals(new Core.SendResult(2, new SendOutcome.Enqueued(0, 11384, 2)), core.send(N1, N0, bytes("63"), 0));
        assertEquals(39327, core.vt());                                                       // op 9

        assertEquals(new RecvOutcome.Delivered(N1, N0, 11384, 2, "63"), core.recv(0));       // op 10
        assertEquals(39327, core.vt());
        assertEquals(new RecvOutcome.Delivered(N1, N0, 21403, 1, "62"), core.recv(0));       // op 11
        assertEquals(39327, core.vt());
        assertEquals(new RecvOutcome.Delivered(N1, N0, 39327, 0, "61"), core.recv(0));       // op 12
        assertEquals(39327, core.vt());
        assertEquals(RecvOutcome.EMPTY, core.recv(0));                                        // op 13
        assertEquals(39327, core.vt());
        core.disconnect(1);                                                                   // op 14
        assertEquals(39327, core.vt());
        // op 15 end: events 16, sent 4, dropped 0, vt 39327
        assertEquals(4, core.sent());
        assertEquals(0, core.dropped());
        assertEquals(39327, core.vt());
        assertEquals(3, core.tie());
    }

    static byte[] bytes(String hex) {
        return dev.weft.text.Hex.decode(hex);
    }
}
