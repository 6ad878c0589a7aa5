package dev.weft.mutation;

import dev.weft.chord.ChordReport;
import dev.weft.raft.RaftReport;
import dev.weft.text.Hex;

/**
 * RPT state reports (invariants-and-checkers.md §4) as the Chord and Raft checkers read them from payload hex.
 * A payload that is not a report is ignored by design (not an error), so "rejected" here means "not a report";
 * the property is that neither parser throws, and that they agree where their white-space rules coincide.
 */
final class RptFormat extends SeededFormat {

    RptFormat() {
        super("rpt-report", new ByteMutator(ByteMutator.bytes(
                "RPT 3 17 1 5 9 2", "RPT 0 0 0 -1 -1 -1", "RPT 2 40 1 3 2 1", "RPT\t1\t2\t1\t4\t0\t-1\n", "  RPT 5 6 1 7 8 9 extra",
                "RPT 2147483647 -2147483648 1 0 0 0"),
                ByteMutator.bytes("RPT", " ", "\t", "\u00a0", "\u2003", "\u3000", "-", "+", "2147483648", "-2147483649", "\f")));
    }

    @Override
    public String feed(byte[] input) {
        String hex = Hex.encodeLower(input);
        ChordReport chord = ChordReport.parse(hex);
        RaftReport raft = RaftReport.parse(hex);
        if (raft != null && (chord == null || chord.ident() != raft.node() || chord.date() != raft.date()
                || chord.alive() != raft.alive() || chord.succ() != raft.term() || chord.succ2() != raft.role()
                || chord.prdc() != raft.votedFor())) {
            // Raft splits on ASCII white space only, a subset of Chord's: whatever Raft reads, Chord reads the same.
            throw new AssertionError("chord and raft disagree: " + chord + " vs " + raft);
        }
        return chord == null ? "not a report" : null;
    }
}
