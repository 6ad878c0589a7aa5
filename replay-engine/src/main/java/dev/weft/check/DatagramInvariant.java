package dev.weft.check;

import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;

/**
 * An invariant over the datagrams' paths only: it sees each send the core enqueued and each delivery, and passes
 * over every other event (the built-in invariants of invariants-and-checkers.md §2 are all of this kind).
 */
abstract class DatagramInvariant implements Invariant {

    @Override
    public final String offer(long op, long vt, Event event) {
        if (event instanceof Event.Recv recv && recv.outcome() instanceof RecvOutcome.Delivered d) {
            return delivered(op, d);
        }
        if (event instanceof Event.Send send && send.outcome() instanceof SendOutcome.Enqueued enq) {
            return enqueued(send, enq);
        }
        return null;
    }

    /** A send the core enqueued as datagram {@code enq.tie()}; returns the violation it completes, or null. */
    String enqueued(Event.Send send, SendOutcome.Enqueued enq) {
        return null;
    }

    /** A delivery at op {@code op}; returns the violation it completes, or null. */
    abstract String delivered(long op, RecvOutcome.Delivered d);
}
