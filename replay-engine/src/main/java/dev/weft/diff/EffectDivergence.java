package dev.weft.diff;

/**
 * The first node-visible effect that differs: of each node's first k-th delivery or send that is not the same on
 * both sides, the earliest (by the earlier side's virtual time, then op). A side is null when that node got no k-th
 * delivery there.
 */
public record EffectDivergence(long node, long index, NodeDelivery a, NodeDelivery b) {
}
