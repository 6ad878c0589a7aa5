package dev.weft.check;

import dev.weft.log.RecvOutcome;

/**
 * {@code no-duplicate-delivery}: a datagram (identified by its tie) is delivered at most once
 * (invariants-and-checkers.md §2.2). The core never does this, so it fires only on edited or foreign logs.
 */
public final class NoDuplicateDelivery extends DatagramInvariant {

    public static final String NAME = "no-duplicate-delivery";

    /** tie → the op of its first delivery. */
    private final LongPairMap deliveredAtOp = new LongPairMap();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    String delivered(long op, RecvOutcome.Delivered d) {
        int at = deliveredAtOp.indexOf(d.tie(), 0);
        if (at >= 0) {
            long previous = deliveredAtOp.valueAt(at);
            // As Map.put did: the latest delivery's op is what a third delivery names.
            deliveredAtOp.put(d.tie(), 0, op);
            return "datagram tie=" + Long.toUnsignedString(d.tie()) + " delivered twice (first at op "
                    + Long.toUnsignedString(previous) + ")";
        }
        deliveredAtOp.put(d.tie(), 0, op);
        return null;
    }
}
