package dev.weft.findings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The one ranking of a recording's findings, used alike by {@code weft explain}, the workbench (the finding it opens
 * on, "violation k of N", the findings list) and campaign results: verdicts about the program (protocol, stream
 * integrity, deadlock, history) before network invariants (fifo, dup); within each tier by op, then by kind, invariant
 * and message, so the order never depends on the order the findings were found in.
 */
public final class FindingRanking {

    /** Most severe first. */
    public static final Comparator<Finding> ORDER = Comparator
            .comparing((Finding f) -> !f.kind().verdict())
            .thenComparingLong(Finding::op)
            .thenComparing(Finding::kind)
            .thenComparing(Finding::invariant)
            .thenComparing(Finding::message);

    private FindingRanking() { }

    /**
     * The findings ranked, one per (invariant, op, message): a fifo violation the recorder wrote and replay found again
     * is one finding (the replay's, which comes with the checker's own wording).
     */
    public static List<Finding> rank(Collection<Finding> findings) {
        List<Finding> sorted = new ArrayList<>(findings);
        // Replay before recorded, so the kept copy of a duplicate is the replay's.
        sorted.sort(Comparator.comparing((Finding f) -> f.origin() == Finding.Origin.RECORDED));
        Set<String> seen = new LinkedHashSet<>();
        List<Finding> out = new ArrayList<>();
        for (Finding f : sorted) {
            String key = f.kind() + "\u0000" + f.op() + "\u0000" + f.message();
            if (seen.add(key)) out.add(f);
        }
        out.sort(ORDER);
        return out;
    }

    /** How many findings of each kind, kinds in ranking order, only those present. */
    public static Map<FindingKind, Integer> counts(List<Finding> findings) {
        Map<FindingKind, Integer> out = new TreeMap<>();
        for (Finding f : findings) out.merge(f.kind(), 1, Integer::sum);
        return out;
    }

    /** "stream integrity 1, per-channel FIFO 28, duplicate delivery 2" (kinds in ranking order). */
    public static String countsText(List<Finding> findings) {
        StringBuilder s = new StringBuilder();
        for (Map.Entry<FindingKind, Integer> e : counts(findings).entrySet()) {
            if (s.length() > 0) s.append(", ");
            s.append(e.getKey().label()).append(' ').append(e.getValue());
        }
        return s.toString();
    }
}
