package dev.weft.tcp;

import dev.weft.net.Unsigned;
import java.util.ArrayDeque;

/**
 * One direction of a stream: its segments in send order, how many bytes the receiver has consumed, and the sender's
 * end (FIN). Delivery times never decrease along the queue (segments never overtake); a segment whose delivery is not
 * known yet (a partition cut it) is {@link #STALLED}, and so is every later one until the heal decides them.
 */
final class Flow {

    /** Delivery time of a segment (or FIN) a partition holds: unknown until the heal. */
    static final long STALLED = -2L;
    /** "No such instant": a FIN never sent. */
    static final long NEVER = -1L;

    /** One write: stream offset of its first byte, its bytes, send time, delivery time (or STALLED), retransmits. */
    static final class Segment {
        final long offset;
        final byte[] bytes;
        final long sendVt;
        final long index;
        long delivNs;
        long retransmits;

        Segment(long offset, byte[] bytes, long sendVt, long index, long delivNs, long retransmits) {
            this.offset = offset;
            this.bytes = bytes;
            this.sendVt = sendVt;
            this.index = index;
            this.delivNs = delivNs;
            this.retransmits = retransmits;
        }

        Segment copy() {
            return new Segment(offset, bytes, sendVt, index, delivNs, retransmits);
        }

        long end() {
            return offset + bytes.length;
        }
    }

    /** Segments not yet wholly consumed by the receiver (consumed ones are dropped from the front). */
    final ArrayDeque<Segment> segments;
    /** Bytes written into this direction so far (= the next segment's offset). */
    long written;
    /** Bytes the receiver has consumed (peeks excluded). */
    long consumed;
    /** Delivery time of the last segment (the handshake's instant before any), or STALLED. */
    long lastDeliv;
    /** When the link is free again for the next segment's serialisation (bandwidth). */
    long linkFree;
    /** Index the next data segment's fate is drawn with (0 is the handshake segment). */
    long nextIndex = 1;
    /** Delivery time of the sender's FIN: NEVER until it shuts down writing; STALLED while cut. */
    long finDeliv = NEVER;
    /** When the first still-stalled segment was cut (its send, or the instant a partition caught it again), or NEVER. */
    long stalledSince = NEVER;
    /** The last delivery before the stall began: the floor the resumed segments are delivered after. */
    long resumeFloor;

    Flow(long handshakeDeliv) {
        segments = new ArrayDeque<>();
        lastDeliv = handshakeDeliv;
        linkFree = 0;
    }

    private Flow(Flow o) {
        segments = new ArrayDeque<>(o.segments.size());
        for (Segment s : o.segments) segments.add(s.copy());
        written = o.written;
        consumed = o.consumed;
        lastDeliv = o.lastDeliv;
        linkFree = o.linkFree;
        nextIndex = o.nextIndex;
        finDeliv = o.finDeliv;
        stalledSince = o.stalledSince;
        resumeFloor = o.resumeFloor;
    }

    Flow copy() {
        return new Flow(this);
    }

    /** Bytes written and not consumed: in flight plus unread, what the receive buffer bounds. */
    long outstanding() {
        return written - consumed;
    }

    boolean hasStalled() {
        return stalledSince != NEVER;
    }

    /** Bytes delivered by horizon (unsigned) and not consumed: contiguous from the read point. */
    long deliveredUnread(long horizon) {
        long n = 0;
        for (Segment s : segments) {
            if (!arrived(s.delivNs, horizon)) break;
            n += s.end() - Math.max(s.offset, consumed);
        }
        return n;
    }

    /** Whether any byte is delivered by horizon and not consumed (looks at the head only: segments are in order). */
    boolean hasDeliveredUnread(long horizon) {
        for (Segment s : segments) {
            if (s.end() <= consumed) continue; // an empty segment, or one consumed to its end
            return arrived(s.delivNs, horizon);
        }
        return false;
    }

    /** Bytes written and not yet delivered by horizon. */
    long inFlight(long horizon) {
        return outstanding() - deliveredUnread(horizon);
    }

    /** Whether the FIN has arrived by horizon and every byte before it was consumed. */
    boolean atEof(long horizon) {
        return arrived(finDeliv, horizon) && consumed == written;
    }

    /** The earliest delivery (a segment's or the FIN's) still ahead of horizon, or NEVER. */
    long nextArrivalAfter(long horizon) {
        for (Segment s : segments) {
            if (s.delivNs == STALLED) return NEVER;
            if (!arrived(s.delivNs, horizon)) return s.delivNs;
        }
        if (finDeliv != NEVER && finDeliv != STALLED && !arrived(finDeliv, horizon)) return finDeliv;
        return NEVER;
    }

    /** Whether an instant (a delivery or NEVER/STALLED) is at or before horizon. */
    static boolean arrived(long instant, long horizon) {
        return instant != STALLED && instant != NEVER && Long.compareUnsigned(instant, horizon) <= 0;
    }

    static long max(long a, long b) {
        return Unsigned.max(a, b);
    }
}
