package dev.weft.findings;

import dev.weft.protocol.Protocols;
import dev.weft.testcorpus.SharedCorpus;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ranking on the reference corpus: the protocol verdict first, ahead of many earlier fifo/dup violations. */
class RecordingFindingsTest {

    @Test
    void chordNoRingComesFirst() throws Exception {
        RecordingFindings r = RecordingFindings.read(SharedCorpus.conformance().resolve("chord/chord-fix0-s3.weftlog"));
        assertNull(r.divergence());
        assertEquals(3511, r.records());
        Finding top = r.top();
        assertEquals("AtLeastOneRing", top.invariant());
        assertEquals(FindingKind.of(Protocols.named("chord")), top.kind());
        assertEquals(Finding.Origin.CHECKER, top.origin());
        // The corpus index counts 30 fifo/dup violations on replay; all rank below the ring.
        assertEquals(31, r.findings().size());
        assertTrue(r.findings().subList(1, 31).stream().noneMatch(f -> f.kind().verdict()));
        assertTrue(r.findings().get(1).op() < top.op(), "network findings before the ring's op still rank below it");
    }

    @Test
    void raftElectionSafetyComesFirst() throws Exception {
        RecordingFindings r = RecordingFindings.read(SharedCorpus.conformance().resolve("raft/raft-fix0-s131-violation.weftlog"));
        assertEquals("ElectionSafety", r.top().invariant());
        assertEquals(243, r.top().op());
    }

    @Test
    void aCleanRecordingHasNone() throws Exception {
        Path log = SharedCorpus.conformance().resolve("pingpong/pp-fixed100-s1.weftlog");
        RecordingFindings r = RecordingFindings.read(log);
        assertTrue(r.findings().isEmpty(), r.findings().toString());
        assertNull(r.top());
    }
}
