package dev.weft.check;

import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code no-duplicate-delivery}: a datagram (identified by its tie) is delivered at most once
 * (invariants-and-checkers.md §2.2). The core never does this, so it fires only on edited or foreign logs.
 */
public final class NoDuplicateDelivery implements Invariant {

    public static final String NAME = "no-duplicate-delivery";

    private final Map<Long, Long> deliveredAtOp = new HashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String offer(long op, long vt, Event event) {
        if (event instanceof Event.Recv recv && recv.outcome() instanceof RecvOutcome.Delivered d) {
            Long previous = deliveredAtOp.put(d.tie(), op);
            if (previous != null) {
                return "datagram tie=" + Long.toUnsignedString(d.tie()) + " delivered twice (first at op "
                        + Long.toUnsignedString(previous) + ")";
            }
        }
        return null;
    }
}
