package dev.weft.timeline;

import dev.weft.protocol.Protocol;
import dev.weft.protocol.Protocols;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Every engine protocol has a registered view, found by the protocol's name, and reads reports its own way. */
class ProtocolViewsTest {

    @Test
    void everyRegisteredProtocolHasAView() {
        for (Protocol p : Protocols.all()) assertNotNull(ProtocolViews.of(p.name()), p.name());
        assertNull(ProtocolViews.of("paxos"));
        assertEquals("Chord ring", ProtocolViews.of("chord").title());
        assertEquals("Raft terms", ProtocolViews.of("raft").title());
    }

    @Test
    void aReportIsReadAsTheRecordingsProtocolElseByItsShape() {
        int[] raftShaped = {3, 7, 1, 2, 2, -1};
        assertEquals("Raft report: node 3, date 7, alive true, term 2, role leader, votedFor none",
                ProtocolViews.describeReport(null, raftShaped));
        assertEquals("Chord report: ident 3, date 7, alive true, succ 2, succ2 2, pred none",
                ProtocolViews.describeReport(Protocols.named("chord"), raftShaped));
        assertEquals("Chord report: ident 10, date 1, alive false, succ 20, succ2 30, pred 40",
                ProtocolViews.describeReport(null, new int[] {10, 1, 0, 20, 30, 40}));
    }
}
