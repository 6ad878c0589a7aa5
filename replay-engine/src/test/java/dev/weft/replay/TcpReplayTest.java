package dev.weft.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.CoreState;
import dev.weft.log.Event;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.tcp.TcpState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recorded TCP run replays to the same digest; a record the model disagrees with is a divergence at its op. */
class TcpReplayTest {

    @TempDir
    Path dir;

    @Test
    void aRecordedTcpRunReplaysIdenticallyToTheSameDigest() throws Exception {
        Path log = dir.resolve("tcp.weftlog");
        List<Event> events = TcpRecordingFixture.write(log, 11, e -> e);
        assertTrue(events.stream().anyMatch(e -> e instanceof Event.TcpSend s && s.outcome().kind().equals("stalled")),
                "the fixture exercises a stall");
        assertTrue(events.stream().anyMatch(e -> e instanceof Event.TcpRecv r && r.outcome() instanceof TcpRecvOutcome.Reset),
                "and a reset");
        ReplayReport r = Replayer.replay(log, new ReplayOptions(null, List.of("stream", "fifo", "dup")));
        assertNull(r.divergence(), () -> "diverged: " + r.divergence());
        assertEquals(r.recordedDigest(), r.digest());
        assertEquals(events.size(), r.count());
        assertEquals(List.of(), r.violations());
    }

    @Test
    void everySeedReplays() throws Exception {
        for (long seed = 0; seed < 30; seed++) {
            Path log = dir.resolve("tcp-" + seed + ".weftlog");
            TcpRecordingFixture.write(log, seed, e -> e);
            ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
            long s = seed;
            assertNull(r.divergence(), () -> "seed " + s + " diverged: " + r.divergence());
        }
    }

    @Test
    void aReadTheModelDisagreesWithDivergesAtItsOp() throws Exception {
        Path log = dir.resolve("bad.weftlog");
        List<Event> events = TcpRecordingFixture.write(log, 11, e -> e instanceof Event.TcpRecv r
                && r.outcome() instanceof TcpRecvOutcome.Data d && d.offset() == 4 && r.conn() == 2
                ? new Event.TcpRecv(r.conn(), r.sid(), r.max(), r.peek(), r.blocking(),
                        new TcpRecvOutcome.Data(d.offset(), d.delivNs(), "78" + d.payload().substring(2))) : e);
        ReplayReport r = Replayer.replay(log, ReplayOptions.PLAIN);
        assertNotNull(r.divergence());
        Event at = events.get((int) r.divergence().op());
        assertTrue(at instanceof Event.TcpRecv, at.toString());
        assertTrue(r.divergence().recorded().contains("\"payload\":\"78"), r.divergence().recorded());
    }

    @Test
    void aWrongDeliveryTimeDiverges() throws Exception {
        Path log = dir.resolve("late.weftlog");
        TcpRecordingFixture.write(log, 11, e -> e instanceof Event.TcpSend s
                && s.outcome() instanceof dev.weft.log.TcpSendOutcome.Segment g && s.offset() == 0 && s.conn() == 3
                ? new Event.TcpSend(s.conn(), s.sid(), s.offset(), s.sendVt(), s.payload(),
                        new dev.weft.log.TcpSendOutcome.Segment(g.delivNs() + 1, g.retransmits())) : e);
        assertNotNull(Replayer.replay(log, ReplayOptions.PLAIN).divergence());
    }

    @Test
    void aPayloadThatIsNotHexIsOneClearReplayError() throws Exception {
        Path log = dir.resolve("hex.weftlog");
        List<Event> events = TcpRecordingFixture.write(log, 11, e -> e instanceof Event.TcpSend s && s.offset() == 0
                && s.conn() == 2 ? new Event.TcpSend(s.conn(), s.sid(), s.offset(), s.sendVt(), "zz", s.outcome()) : e);
        long op = 0;
        while (!(events.get((int) op) instanceof Event.TcpSend s && s.payload().equals("zz"))) op++;
        ReplayException e = org.junit.jupiter.api.Assertions.assertThrows(ReplayException.class,
                () -> Replayer.replay(log, ReplayOptions.PLAIN));
        assertEquals("op " + op + ": tcp_send: payload is not valid hex", e.getMessage());
    }

    @Test
    void stateAtShowsListenersAndConnections() throws Exception {
        Path log = dir.resolve("state.weftlog");
        List<Event> events = TcpRecordingFixture.write(log, 11, e -> e);
        int afterRequest = 0;
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof Event.TcpSend) {
                afterRequest = i;
                break;
            }
        }
        try (LogIndex index = LogIndex.build(log)) {
            CoreState s = index.stateAt(afterRequest);
            TcpState tcp = s.tcp();
            assertEquals(1, tcp.listeners().size());
            assertEquals(TcpRecordingFixture.SERVER, tcp.listeners().get(0).addr());
            TcpState.Connection c = tcp.connections().get(0);
            assertEquals("established", c.state());
            assertEquals(18, c.toAcceptor().written());
            assertEquals(0, c.toAcceptor().read());
            assertEquals(18, c.toAcceptor().inFlight() + c.toAcceptor().unread());
            CoreState end = index.stateAt(events.size() - 1);
            assertEquals("reset", end.tcp().connections().get(1).state());
            assertEquals("refused", end.tcp().connections().get(2).state());
        }
    }
}
