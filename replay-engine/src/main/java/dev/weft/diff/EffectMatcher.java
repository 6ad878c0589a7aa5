package dev.weft.diff;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * Pairs each node's k-th delivery on side A with its k-th delivery on side B as the two logs stream past. A
 * delivery waits in its side's queue until the other side's k-th arrives; a node's first pair that differs is that
 * node's divergence, and deliveries left unpaired at the end (one side's node got more) count as differences too.
 *
 * <p>The answer is the earliest of the nodes' divergences in virtual time, not the first pair the stream happens to
 * complete: when a datagram is dropped on one side, its receiver differs first, but that side may have nothing to
 * pair with until much later, while a node that hears of it afterwards already shows a complete differing pair. A
 * cause comes before its effects in virtual time (every trip takes at least the net's minimum latency), so the
 * earliest divergence is the one the others follow from.
 */
final class EffectMatcher {

    private final Map<Long, ArrayDeque<NodeDelivery>> waitingA = new HashMap<>();
    private final Map<Long, ArrayDeque<NodeDelivery>> waitingB = new HashMap<>();
    /** Each node's divergence once seen; that node's later events no longer matter (nor are they queued). */
    private final Map<Long, EffectDivergence> divergedNodes = new HashMap<>();

    /** Earliest first: by the earlier side's virtual time, then its op, then side A's first, then node. */
    static final Comparator<EffectDivergence> EARLIEST = Comparator
            .comparingLong(EffectMatcher::earliestVt)
            .thenComparingLong(EffectMatcher::earliestOp)
            .thenComparing(e -> e.a() == null)
            .thenComparingLong(EffectDivergence::node);

    void offerA(NodeDelivery d) {
        offer(d, waitingA, waitingB, true);
    }

    void offerB(NodeDelivery d) {
        offer(d, waitingB, waitingA, false);
    }

    private void offer(NodeDelivery d, Map<Long, ArrayDeque<NodeDelivery>> mine,
            Map<Long, ArrayDeque<NodeDelivery>> theirs, boolean isA) {
        if (d == null || divergedNodes.containsKey(d.node())) {
            return;
        }
        ArrayDeque<NodeDelivery> other = theirs.get(d.node());
        if (other == null || other.isEmpty()) {
            mine.computeIfAbsent(d.node(), n -> new ArrayDeque<>()).add(d);
            return;
        }
        NodeDelivery match = other.poll(); // same node, same index: both sides count in order
        if (!match.text().equals(d.text())) {
            divergedNodes.put(d.node(), isA ? new EffectDivergence(d.node(), d.index(), d, match)
                    : new EffectDivergence(d.node(), d.index(), match, d));
            waitingA.remove(d.node());
            waitingB.remove(d.node());
        }
    }

    /** The earliest differing delivery once both logs are read, or null when every node saw the same. */
    EffectDivergence finish() {
        EffectDivergence best = null;
        for (EffectDivergence e : divergedNodes.values()) {
            best = earlier(best, e);
        }
        // Unpaired leftovers of the nodes whose pairs all matched: the node's first one is where it differs.
        for (boolean sideA : new boolean[] {true, false}) {
            for (ArrayDeque<NodeDelivery> q : (sideA ? waitingA : waitingB).values()) {
                NodeDelivery d = q.peek();
                if (d == null) {
                    continue;
                }
                best = earlier(best, sideA ? new EffectDivergence(d.node(), d.index(), d, null)
                        : new EffectDivergence(d.node(), d.index(), null, d));
            }
        }
        return best;
    }

    /** A total order, so the answer does not depend on the order the maps iterate in. */
    private static EffectDivergence earlier(EffectDivergence best, EffectDivergence candidate) {
        return best == null || EARLIEST.compare(candidate, best) < 0 ? candidate : best;
    }

    private static long earliestVt(EffectDivergence e) {
        return Math.min(e.a() != null ? e.a().vt() : Long.MAX_VALUE, e.b() != null ? e.b().vt() : Long.MAX_VALUE);
    }

    private static long earliestOp(EffectDivergence e) {
        return Math.min(e.a() != null ? e.a().op() : Long.MAX_VALUE, e.b() != null ? e.b().op() : Long.MAX_VALUE);
    }
}
