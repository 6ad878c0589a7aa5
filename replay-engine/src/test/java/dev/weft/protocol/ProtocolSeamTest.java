package dev.weft.protocol;

import static dev.weft.chord.TestRecords.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.chord.ChordProtocol;
import dev.weft.findings.Finding;
import dev.weft.findings.FindingKind;
import dev.weft.findings.FindingWords;
import dev.weft.log.LogRecord;
import dev.weft.raft.RaftProtocol;
import org.junit.jupiter.api.Test;

import java.util.List;

/** A protocol registered through META-INF/services is found, ordered, and used by the generic code. */
class ProtocolSeamTest {

    private static ProtocolResult verdictOf(List<LogRecord> records) {
        ProtocolVerdicts v = new ProtocolVerdicts();
        for (LogRecord r : records) v.accept(r);
        return v.result();
    }

    @Test
    void registeredProtocolsComeInTheirFixedOrders() {
        assertEquals(List.of("chord", "raft", "toy"), Protocols.all().stream().map(Protocol::name).toList());
        assertEquals(List.of("toy", "raft", "chord"), Protocols.byShapeRank().stream().map(Protocol::name).toList());
        assertEquals("chord|raft|toy", Protocols.names("|"));
        assertInstanceOf(ToyProtocol.class, Protocols.named("toy"));
        assertSame(Protocols.named("chord"), Protocols.owning("OrderedRing"));
        assertNull(Protocols.named("paxos"));
    }

    @Test
    void aRecordingIsJudgedByTheFirstProtocolWhoseShapeEveryReportFits() {
        ProtocolResult toy = verdictOf(List.of(send(1, "RPT 1 777 1 0 0 0"), send(2, "RPT -4 777 1 0 0 0")));
        assertInstanceOf(ToyProtocol.class, toy.protocol());
        assertEquals(List.of(new PlacedViolation(ToyProtocol.INVARIANT, 2, "node -4")), toy.violations());

        // One report without the toy's date: the next protocol whose shape fits speaks (role 0..2: Raft).
        assertInstanceOf(RaftProtocol.class, verdictOf(List.of(send(1, "RPT 1 777 1 0 0 0"), send(2, "RPT 2 5 1 0 0 0"))).protocol());
        // Identifiers where Raft has its role: only Chord's shape fits.
        assertInstanceOf(ChordProtocol.class, verdictOf(List.of(send(1, "RPT 10 1 1 20 30 40"))).protocol());
        assertNull(verdictOf(List.of(send(1, "hello"))));
    }

    @Test
    void theProtocolsFindingsHaveTheirOwnKindAndWords() {
        FindingKind kind = FindingKind.of(ToyProtocol.INVARIANT);
        assertEquals("toy", kind.word());
        assertEquals("Toy", kind.label());
        assertTrue(kind.verdict());
        assertTrue(kind.compareTo(FindingKind.STREAM) < 0, "a protocol's verdict ranks before the generic kinds");
        assertEquals(List.of("chord", "raft", "toy", "stream"),
                FindingKind.values().subList(0, 4).stream().map(FindingKind::word).toList());
        assertEquals("A toy node went negative at op 9.", FindingWords.plain(
                Finding.of(ToyProtocol.INVARIANT, 9, 90, "node -1", Finding.Origin.CHECKER)));
    }
}
