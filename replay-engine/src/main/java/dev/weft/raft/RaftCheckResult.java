package dev.weft.raft;

import dev.weft.check.CheckVerdict;
import dev.weft.chord.ChordText;
import dev.weft.log.LogHeader;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The outcome of raft-check: report counts, the distinct leaders of each term in order of appearance
 * (terms ascending), and one violation per term that got a second leader.
 */
public record RaftCheckResult(long reports, long restarts, SortedMap<Integer, List<Integer>> leadersByTerm,
                              List<RaftViolation> violations) {

    public static final int EXIT_OK = CheckVerdict.OK.exitCode();
    public static final int EXIT_VIOLATION = CheckVerdict.VIOLATION.exitCode();
    public static final int EXIT_DISCARD = CheckVerdict.DISCARD.exitCode();

    public RaftCheckResult {
        leadersByTerm = Collections.unmodifiableSortedMap(new TreeMap<>(leadersByTerm));
        violations = List.copyOf(violations);
    }

    /** No term ever had a leader: the run says nothing about ElectionSafety. */
    public boolean uninformative() {
        return leadersByTerm.values().stream().allMatch(List::isEmpty);
    }

    /** DISCARD when no term had a leader (it takes precedence), else VIOLATION on any violation, else OK. */
    public CheckVerdict outcome() {
        return CheckVerdict.of(uninformative(), !violations.isEmpty());
    }

    public int exitCode() {
        return outcome().exitCode();
    }

    public String verdict() {
        return outcome().text("at most one leader per term", "ElectionSafety broken", "no leader elected; seed uninformative");
    }

    /** The complete stdout of {@code raft-check <LOG>} (§6). */
    public String render(String logName, LogHeader header) {
        StringBuilder sb = new StringBuilder();
        sb.append("=".repeat(15)).append(" RAFT ELECTION-SAFETY CHECK ").append("=".repeat(15)).append('\n');
        sb.append("recording : ").append(logName).append("  (seed ").append(Long.toUnsignedString(header.seed()))
                .append(", net ").append(header.net()).append(")\n");
        sb.append("reports   : ").append(reports).append(" state reports, ").append(restarts).append(" crash-restarts\n");
        for (Map.Entry<Integer, List<Integer>> e : leadersByTerm.entrySet()) {
            sb.append("term ").append(ChordText.pad(e.getKey(), 4)).append("  leaders: ").append(ChordText.list(e.getValue())).append('\n');
        }
        sb.append('\n').append("verdict   : ").append(verdict()).append('\n');
        if (exitCode() == EXIT_VIOLATION) {
            for (RaftViolation v : violations) {
                sb.append("  \u2717 term ").append(v.term()).append(": leaders [").append(v.first()).append(", ").append(v.second())
                        .append("] (second leader at op ").append(Long.toUnsignedString(v.op())).append(")\n");
            }
        }
        sb.append("=".repeat(58)).append('\n');
        return sb.toString();
    }
}
