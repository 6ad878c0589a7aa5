package dev.weft.raft;

import dev.weft.protocol.PlacedViolation;
import dev.weft.protocol.Protocol;
import dev.weft.protocol.ProtocolResult;
import dev.weft.protocol.ProtocolRun;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Raft behind the protocol seam. Its reports have a narrow shape (term &ge; 0, role 0..2, votedFor &ge; -1) where a
 * Chord report carries identifiers, so it is tried first. Its checker names the op of each violation (the second
 * leader's report).
 */
public final class RaftProtocol implements Protocol {

    public static final String NAME = "raft";
    public static final String ELECTION_SAFETY = "ElectionSafety";

    private static final Pattern TWO_LEADERS = Pattern.compile("term (-?\\d+): leaders \\[(-?\\d+), (-?\\d+)\\] \\(second leader at op (\\d+)\\)");

    @Override public String name() { return NAME; }
    @Override public int shapeRank() { return 10; }
    @Override public String findingsLabel() { return "Raft"; }
    @Override public List<String> invariants() { return List.of(ELECTION_SAFETY); }
    @Override public boolean judgesEnd() { return false; }

    @Override
    public boolean fits(int[] f) {
        return f[4] >= 0 && f[4] <= 2 && f[3] >= 0 && f[5] >= -1;
    }

    @Override
    public String plainWords(String invariant, long op, String message) {
        Matcher m = TWO_LEADERS.matcher(message);
        if (!m.matches()) return null;
        return "Two leaders in term " + m.group(1) + ": node " + m.group(2) + " was elected first, then node " + m.group(3)
                + " at op " + m.group(4) + ". Raft allows at most one leader per term.";
    }

    @Override
    public String checkCommand(String log) {
        return "weft check raft " + log;
    }

    @Override
    public List<String> campaignCheck(String checker, String log) {
        return checker.equals(NAME) ? List.of("check", NAME, log) : null;
    }

    @Override
    public String campaignCheckerExample() {
        return "\"raft\"";
    }

    @Override
    public String campaignCheckerHelp() {
        return "\"raft\"";
    }

    @Override
    public ProtocolRun newRun() {
        RaftTimeline.Builder timeline = new RaftTimeline.Builder();
        RaftCheck check = new RaftCheck();
        return ProtocolRun.of(r -> {
            timeline.accept(r);
            check.accept(r);
        }, () -> {
            RaftCheckResult result = check.result();
            return new ProtocolResult(this, result.verdict(), result.exitCode(), placed(result), List.of(),
                    timeline.build());
        });
    }

    /** raft-check's violations at the second leader's op, worded as raft-check prints them. */
    public static List<PlacedViolation> placed(RaftCheckResult result) {
        List<PlacedViolation> out = new ArrayList<>();
        for (RaftViolation v : result.violations()) {
            out.add(new PlacedViolation(ELECTION_SAFETY, v.op(), "term " + v.term() + ": leaders [" + v.first() + ", " + v.second()
                    + "] (second leader at op " + Long.toUnsignedString(v.op()) + ")"));
        }
        out.sort(Comparator.comparingLong(PlacedViolation::op));
        return out;
    }
}
