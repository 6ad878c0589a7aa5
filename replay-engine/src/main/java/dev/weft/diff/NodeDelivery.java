package dev.weft.diff;

/**
 * The {@code index}-th delivery (from 0) that node {@code node} received, at op {@code op}; {@code text} is what the
 * node saw: source address and payload.
 */
public record NodeDelivery(long node, long index, long op, long vt, String text) {
}
