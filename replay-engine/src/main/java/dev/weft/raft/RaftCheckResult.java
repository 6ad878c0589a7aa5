package dev.weft.raft;

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

    public static final int EXIT_OK = 0;
    public static final int EXIT_VIOLATION = 2;
    public static final int EXIT_DISCARD = 3;

    public RaftCheckResult {
        leadersByTerm = Collections.unmodifiableSortedMap(new TreeMap<>(leadersByTerm));
        violations = List.copyOf(violations);
    }

    /** No term ever had a leader: the run says nothing about ElectionSafety. */
    public boolean uninformative() {
        return leadersByTerm.values().stream().allMatch(List::isEmpty);
    }

    public int exitCode() {
        if (uninformative()) return EXIT_DISCARD;
        return violations.isEmpty() ? EXIT_OK : EXIT_VIOLATION;
    }

    public String verdict() {
        return switch (exitCode()) {
            case EXIT_DISCARD -> "DISCARD \u2014 no leader elected; seed uninformative";
            case EXIT_OK -> "OK \u2014 at most one leader per term";
            default -> "VIOLATION \u2014 ElectionSafety broken";
        };
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
