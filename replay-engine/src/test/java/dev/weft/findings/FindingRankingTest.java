package dev.weft.findings;

import dev.weft.protocol.Protocols;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FindingRankingTest {

    private static Finding f(String invariant, long op, Finding.Origin origin) {
        return Finding.of(invariant, op, op * 10, "m" + op, origin);
    }

    @Test
    void kindsFollowTheInvariantNames() {
        assertEquals(FindingKind.of(Protocols.named("chord")), FindingKind.of("AtLeastOneRing"));
        assertEquals(FindingKind.of(Protocols.named("raft")), FindingKind.of("ElectionSafety"));
        assertEquals(FindingKind.FIFO, FindingKind.of("per-channel-fifo"));
        assertEquals(FindingKind.FIFO, FindingKind.of("fifo"));
        assertEquals(FindingKind.DUPLICATE, FindingKind.of("no-duplicate-delivery"));
        assertEquals(FindingKind.DEADLOCK, FindingKind.of("deadlock"));
        assertEquals(FindingKind.STREAM, FindingKind.of("stream-integrity"));
        assertEquals(FindingKind.HISTORY, FindingKind.of("linearizability"));
        assertEquals(FindingKind.OTHER, FindingKind.of("something-new"));
    }

    @Test
    void verdictsComeBeforeNetworkInvariantsWhateverTheirOps() {
        List<Finding> in = List.of(
                f("per-channel-fifo", 5, Finding.Origin.REPLAY),
                f("no-duplicate-delivery", 2, Finding.Origin.REPLAY),
                f("AtLeastOneRing", 900, Finding.Origin.CHECKER),
                f("deadlock", 950, Finding.Origin.RECORDED),
                f("ElectionSafety", 300, Finding.Origin.CHECKER));
        List<String> ranked = FindingRanking.rank(in).stream().map(x -> x.invariant() + "@" + x.op()).toList();
        assertEquals(List.of("ElectionSafety@300", "AtLeastOneRing@900", "deadlock@950",
                "no-duplicate-delivery@2", "per-channel-fifo@5"), ranked);
    }

    @Test
    void theOrderDoesNotDependOnTheOrderFound() {
        List<Finding> in = new ArrayList<>();
        for (int i = 0; i < 40; i++) in.add(f(i % 3 == 0 ? "fifo" : i % 3 == 1 ? "dup" : "OrderedRing", i % 7, Finding.Origin.REPLAY));
        List<Finding> expected = FindingRanking.rank(in);
        for (int seed = 0; seed < 10; seed++) {
            List<Finding> shuffled = new ArrayList<>(in);
            Collections.shuffle(shuffled, new Random(seed));
            assertEquals(expected, FindingRanking.rank(shuffled));
        }
    }

    @Test
    void aViolationRecordedAndFoundAgainOnReplayIsOneFinding() {
        List<Finding> ranked = FindingRanking.rank(List.of(
                f("per-channel-fifo", 7, Finding.Origin.RECORDED), f("per-channel-fifo", 7, Finding.Origin.REPLAY)));
        assertEquals(1, ranked.size());
        assertEquals(Finding.Origin.REPLAY, ranked.get(0).origin());
        assertEquals("per-channel FIFO 1", FindingRanking.countsText(ranked));
    }

    @Test
    void chordWordsSayItIsBrokenToTheEnd() {
        String w = FindingWords.plain("AtLeastOneRing", 3390, "no ring member: the best-successor graph has no cycle");
        assertEquals("There is no ring: following the live nodes' best successors never comes back round"
                + " (broken from op 3390 to the end of the run).", w);
    }
}
