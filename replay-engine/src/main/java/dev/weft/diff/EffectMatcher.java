package dev.weft.diff;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * Pairs each node's k-th delivery on side A with its k-th delivery on side B as the two logs stream past. A
 * delivery waits in its side's queue until the other side's k-th arrives; the first pair that differs is the first
 * node-visible divergence. Deliveries left unpaired at the end (one side's node got more) count as differences too.
 */
final class EffectMatcher {

    private final Map<Long, ArrayDeque<NodeDelivery>> waitingA = new HashMap<>();
    private final Map<Long, ArrayDeque<NodeDelivery>> waitingB = new HashMap<>();
    private static final Comparator<EffectDivergence> ORDER = Comparator
            .comparingLong((EffectDivergence e) -> (e.a() != null ? e.a() : e.b()).op())
            .thenComparing(e -> e.a() == null)
            .thenComparingLong(EffectDivergence::node);

    private EffectDivergence first;

    void offerA(NodeDelivery d) {
        offer(d, waitingA, waitingB, true);
    }

    void offerB(NodeDelivery d) {
        offer(d, waitingB, waitingA, false);
    }

    private void offer(NodeDelivery d, Map<Long, ArrayDeque<NodeDelivery>> mine,
            Map<Long, ArrayDeque<NodeDelivery>> theirs, boolean isA) {
        if (d == null || first != null) {
            return;
        }
        ArrayDeque<NodeDelivery> other = theirs.get(d.node());
        if (other == null || other.isEmpty()) {
            mine.computeIfAbsent(d.node(), n -> new ArrayDeque<>()).add(d);
            return;
        }
        NodeDelivery match = other.poll(); // same node, same index: both sides count in order
        if (!match.text().equals(d.text())) {
            first = isA ? new EffectDivergence(d.node(), d.index(), d, match)
                    : new EffectDivergence(d.node(), d.index(), match, d);
        }
    }

    /** The first differing delivery once both logs are read, or null when every node saw the same. */
    EffectDivergence finish() {
        if (first != null) {
            return first;
        }
        // Unpaired leftovers: the earliest by op (then side A first, then node) is reported, a stable answer
        // whatever order the maps iterate in.
        EffectDivergence best = null;
        for (boolean sideA : new boolean[] {true, false}) {
            for (ArrayDeque<NodeDelivery> q : (sideA ? waitingA : waitingB).values()) {
                NodeDelivery d = q.peek();
                if (d == null) {
                    continue;
                }
                EffectDivergence candidate = sideA ? new EffectDivergence(d.node(), d.index(), d, null)
                        : new EffectDivergence(d.node(), d.index(), null, d);
                if (best == null || ORDER.compare(candidate, best) < 0) {
                    best = candidate;
                }
            }
        }
        return best;
    }
}
