package dev.weft.broker;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.record.LogRecorder;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The windowed sequencer driven directly: the recording does not depend on the order in which two nodes'
 * requests reach the broker, and an operation behind what was already applied discards the run.
 */
class WindowedSequencerTest {
    static final String NET = "latency=uniform:2000-10000";
    static final VAddr A0 = new VAddr(0x7F000001L, 4000);
    static final VAddr A1 = new VAddr(0x7F000002L, 4001);

    @TempDir
    Path dir;

    private WindowedSequencer sequencer(Path log, List<String> discards) throws Exception {
        FaultModel fault = FaultModel.of(9, NET);
        return new WindowedSequencer(fault, LogRecorder.create(log, 9, NET, 1000, s -> { }), 1000, List.of(0L, 1L),
                0, discards::add);
    }

    private static void helloAndBind(WindowedSequencer s, long conn, long node, VAddr addr) {
        s.hello(conn, node, 0);
        s.bind(conn, addr);
    }

    /** Two nodes exchanging a datagram each way; {@code nodeOneFirst} flips the arrival order of every step. */
    private byte[] exchange(String name, boolean nodeOneFirst) throws Exception {
        Path log = dir.resolve(name);
        List<String> discards = new ArrayList<>();
        WindowedSequencer s = sequencer(log, discards);
        long c0;
        long c1;
        if (nodeOneFirst) {
            c1 = s.connect();
            c0 = s.connect();
            helloAndBind(s, c1, 1, A1);
            helloAndBind(s, c0, 0, A0);
        } else {
            c0 = s.connect();
            c1 = s.connect();
            helloAndBind(s, c0, 0, A0);
            helloAndBind(s, c1, 1, A1);
        }
        byte[] p0 = "from0".getBytes(StandardCharsets.UTF_8);
        byte[] p1 = "from1".getBytes(StandardCharsets.UTF_8);
        if (nodeOneFirst) {
            s.send(c1, A1, A0, p1, 1500);
            s.send(c0, A0, A1, p0, 1200);
        } else {
            s.send(c0, A0, A1, p0, 1200);
            s.send(c1, A1, A0, p1, 1500);
        }
        // both wait in blocking receives and leave once served: the first to be served must leave (or wait
        // again) before the other can be, since it could still send something that arrives earlier
        OpSequencer.RecvReply r0 = null;
        OpSequencer.RecvReply r1 = null;
        for (int poll = 0; poll < 4 && (r0 == null || r1 == null); poll++) {
            for (int k = 0; k < 2; k++) {
                boolean one = (k == 0) == nodeOneFirst;
                if (one && r1 == null) {
                    r1 = delivered(s.recv(c1, true, 1600, d -> { }));
                    if (r1 != null) {
                        s.goodbye(c1);
                    }
                } else if (!one && r0 == null) {
                    r0 = delivered(s.recv(c0, true, 1300, d -> { }));
                    if (r0 != null) {
                        s.goodbye(c0);
                    }
                }
            }
        }
        assertArrayEquals(p1, r0.delivery().payload());
        assertArrayEquals(p0, r1.delivery().payload());
        assertTrue(r0.delivery().vt() >= 1500 + 2000, "Deliver carries the datagram's deliv_ns");
        s.finish();
        assertEquals(List.of(), discards);
        return Files.readAllBytes(log);
    }

    private static OpSequencer.RecvReply delivered(OpSequencer.RecvReply r) {
        return r.delivery() != null ? r : null;
    }

    @Test
    void theRecordingDoesNotDependOnArrivalOrder() throws Exception {
        byte[] a = exchange("a.weftlog", false);
        byte[] b = exchange("b.weftlog", true);
        assertArrayEquals(a, b, () -> new String(a, StandardCharsets.UTF_8) + "\n---\n"
                + new String(b, StandardCharsets.UTF_8));
        String text = new String(a, StandardCharsets.UTF_8);
        // node 0's send (local_vt 1200) is fed before node 1's (1500) whichever reached the broker first
        assertTrue(text.indexOf("\"send_vt\":1200") < text.indexOf("\"send_vt\":1500"), text);
        assertTrue(text.contains("\"window_ns\":1000"), text);
    }

    @Test
    void anOperationBehindTheAppliedOrderDiscardsTheRun() throws Exception {
        List<String> discards = new ArrayList<>();
        WindowedSequencer s = sequencer(dir.resolve("late.weftlog"), discards);
        long c0 = s.connect();
        long c1 = s.connect();
        s.hello(c0, 0, 0);
        s.bind(c0, A0);
        s.hello(c1, 1, 0);
        s.bind(c1, A1);
        s.frontier(c0, 50_000);
        s.send(c1, A1, A0, new byte[] {1}, 40_000); // applied: node 0 promised nothing before 50000
        assertNull(s.discardReason());
        s.frontier(c1, 60_000);
        s.send(c0, A0, A1, new byte[] {2}, 30_000); // node 0's clock went backwards past an applied send
        assertEquals(1, discards.size(), discards.toString());
        assertTrue(discards.get(0).startsWith("protocol violation: node 0 send at local_vt 30000 after virtual time"),
                discards.get(0));
        s.finish();
    }
}
