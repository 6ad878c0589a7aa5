package dev.weft.broker;

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
 * A node whose process runs holds the windowed frontier at its clock even with no socket open (docs/broker.md, "The
 * windowed frontier"): it may open one again, and that hello must not be late. Once the launcher reports its exit,
 * the run goes on without it — also for a node that never opened a socket.
 */
class WindowedNodeProcessTest {
    static final String NET = "latency=uniform:2000-10000";
    static final VAddr A0 = new VAddr(0x7F000001L, 4000);
    static final VAddr A1 = new VAddr(0x7F000002L, 4001);

    @TempDir
    Path dir;

    private final List<String> discards = new ArrayList<>();

    private WindowedSequencer sequencer(String name, List<Long> nodes) throws Exception {
        FaultModel fault = FaultModel.of(9, NET);
        WindowedSequencer s = new WindowedSequencer(fault, LogRecorder.create(dir.resolve(name), 9, NET, 1000, x -> { }),
                1000, nodes, 0, discards::add);
        nodes.forEach(s::nodeStarted); // as the launcher does, before any process starts
        return s;
    }

    /** Everything buffered has been applied (the diagnostics line lists the pending keys first). */
    private static boolean nothingPending(WindowedSequencer s) {
        return s.debugState().startsWith("pending []");
    }

    @Test
    void aNodeBetweenTwoSocketsHoldsTheFrontierUntilItsProcessExits() throws Exception {
        WindowedSequencer s = sequencer("reconnect.weftlog", List.of(0L, 1L));
        long c0 = s.connect();
        long c1 = s.connect();
        s.hello(c0, 0, 0);
        s.bind(c0, A0);
        s.hello(c1, 1, 0);
        s.bind(c1, A1);
        s.frontier(c0, 1_000);
        s.goodbye(c0); // node 0 closes its only socket; its process goes on (python's start-up, a reconnecting client)
        s.frontier(c1, 50_000);
        s.send(c1, A1, A0, "later".getBytes(StandardCharsets.UTF_8), 40_000);
        assertTrue(!nothingPending(s), "node 0 could still act at vt 1000, so node 1's send waits: " + s.debugState());

        long c2 = s.connect();
        s.hello(c2, 0, 0); // its next socket, at its clock 1000: not late
        s.bind(c2, A0);
        s.goodbye(c2);
        assertNull(s.discardReason(), discards.toString());
        assertTrue(!nothingPending(s), "node 0 still runs: " + s.debugState());

        s.nodeExited(0); // the process is gone: the run goes on without it
        assertTrue(nothingPending(s), s.debugState());
        s.finish();
        assertEquals(List.of(), discards);
        String log = Files.readString(dir.resolve("reconnect.weftlog"));
        // node 0's second hello (log conn 2) is recorded before node 1's send, in key order
        assertTrue(log.indexOf("\"conn\":2") < log.indexOf("\"send_vt\":40000"), log);
    }

    @Test
    void aNodeThatExitsWithoutASocketNoLongerHoldsTheWindows() throws Exception {
        WindowedSequencer s = sequencer("silent.weftlog", List.of(0L, 1L, 2L));
        long c0 = s.connect();
        long c1 = s.connect();
        s.hello(c0, 0, 0);
        s.bind(c0, A0);
        s.hello(c1, 1, 0);
        s.bind(c1, A1);
        s.frontier(c0, 50_000);
        s.send(c1, A1, A0, new byte[] {1}, 40_000);
        assertTrue(!nothingPending(s), "node 2 may still say hello at vt 0: " + s.debugState());
        s.nodeExited(2); // it never opened a socket
        assertTrue(nothingPending(s), s.debugState());
        s.finish();
        assertEquals(List.of(), discards);
    }

    @Test
    void aRunningProcessWithNoSocketIsNoDeadlock() throws Exception {
        WindowedSequencer s = sequencer("deadlock.weftlog", List.of(0L, 1L));
        List<DeadlockVerdict> verdicts = new ArrayList<>();
        s.onDeadlock(verdicts::add);
        long c0 = s.connect();
        long c1 = s.connect();
        s.hello(c0, 0, 0);
        s.bind(c0, A0);
        s.goodbye(c0);
        s.hello(c1, 1, 0);
        s.bind(c1, A1);
        s.recv(c1, true, 100, d -> { }); // node 1 waits forever for a datagram only node 0 could still send
        assertEquals(List.of(), verdicts, "node 0's process runs: it may open a socket and send");
        s.nodeExited(0);
        assertEquals(1, verdicts.size(), verdicts.toString());
        assertTrue(verdicts.get(0).line().contains("1"), verdicts.get(0).line());
        s.finish();
        assertEquals(List.of(), discards);
    }
}
