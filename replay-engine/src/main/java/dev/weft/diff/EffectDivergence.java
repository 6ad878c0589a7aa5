package dev.weft.diff;

/**
 * The first node-visible effect that differs: the first delivery (earliest by op on either side) where a node's
 * k-th delivery is not the same on both sides. A side is null when that node got no k-th delivery there.
 */
public record EffectDivergence(long node, long index, NodeDelivery a, NodeDelivery b) {
}
