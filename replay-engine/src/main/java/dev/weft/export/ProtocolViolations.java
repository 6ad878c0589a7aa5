package dev.weft.export;

import dev.weft.chord.ChordCheckResult;
import dev.weft.chord.ChordTimeline;
import dev.weft.chord.ChordViolation;
import dev.weft.raft.RaftCheckResult;
import dev.weft.raft.RaftViolation;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The Chord and Raft checkers' violations placed on ops, for views and exports. Raft's checker names the op
 * (the second leader's report). Chord's judges the final state and names none; a Chord violation is placed
 * at the op after which it held without a break to the end of the run: where the ring broke for good.
 */
public final class ProtocolViolations {

    /** One protocol violation: invariant name, op, and the checker's detail text. */
    public record Placed(String invariant, long op, String detail) { }

    public static final String ELECTION_SAFETY = "ElectionSafety";

    private ProtocolViolations() { }

    /** chord-check's violations (none unless its exit code is 2), each at the op since which it held; by op. */
    public static List<Placed> chord(ChordTimeline timeline, ChordCheckResult result) {
        List<Placed> out = new ArrayList<>();
        if (result.exitCode() != ChordCheckResult.EXIT_VIOLATION) return out;
        for (ChordViolation v : result.violations()) out.add(new Placed(v.invariant(), brokenSince(timeline, v), v.detail()));
        out.sort(Comparator.comparingLong(Placed::op));
        return out;
    }

    /** raft-check's violations at the second leader's op, worded as raft-check prints them. */
    public static List<Placed> raft(RaftCheckResult result) {
        List<Placed> out = new ArrayList<>();
        for (RaftViolation v : result.violations()) {
            out.add(new Placed(ELECTION_SAFETY, v.op(), "term " + v.term() + ": leaders [" + v.first() + ", " + v.second()
                    + "] (second leader at op " + Long.toUnsignedString(v.op()) + ")"));
        }
        out.sort(Comparator.comparingLong(Placed::op));
        return out;
    }

    /** The first op of the last stretch over which v held without a break (to the end of the run). */
    static long brokenSince(ChordTimeline t, ChordViolation v) {
        List<Long> ops = t.evaluationChangeOps();
        long since = ops.isEmpty() ? 0 : ops.get(ops.size() - 1);
        for (int i = ops.size() - 1; i >= 0; i--) {
            if (!t.violationsAt(ops.get(i)).contains(v)) break;
            since = ops.get(i);
        }
        return since;
    }
}
