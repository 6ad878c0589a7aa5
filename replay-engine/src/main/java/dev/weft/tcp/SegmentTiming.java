package dev.weft.tcp;

import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.FateSource;
import dev.weft.net.Unsigned;

/**
 * When a segment (or a SYN) arrives (docs/tcp.md "Segments", "Fates and loss"): each attempt's fate from the seeded
 * fault model keyed by (sid, direction, index, attempt), lost attempts adding the retransmission back-off, bandwidth
 * serialising the segments of one direction, and segments never overtaking their predecessor.
 */
final class SegmentTiming {

    /** Retransmission timeout of a segment's first loss; doubles per loss, each wait capped. */
    static final long RTO_NS = 200_000_000L;
    static final long RTO_MAX_NS = 60_000_000_000L;
    /** After this many losses in a row the next attempt gets through (a run with loss=1 still moves). */
    static final int MAX_RETRANSMITS = 15;

    /** One trip: its delay (latency + back-off of the lost attempts) and how many attempts were lost. */
    record Flight(long delay, long retransmits) {
    }

    private final FateSource fault;

    SegmentTiming(FateSource fault) {
        this.fault = fault;
    }

    /**
     * The trip of segment {@code index} of direction {@code dir} of stream sid, written by {@code from} for
     * {@code to} (index 0: the handshake's).
     */
    Flight flight(long sid, VAddr from, VAddr to, int dir, long index) {
        long backoff = 0;
        for (int attempt = 0; ; attempt++) {
            FaultModel.Fate fate = fault.streamFate(sid, from, to, dir, index, attempt);
            if (!fate.dropped()) return new Flight(Unsigned.saturatingAdd(backoff, fate.delayNs()), attempt);
            if (attempt == MAX_RETRANSMITS) return new Flight(backoff, attempt);
            backoff = Unsigned.saturatingAdd(backoff, Math.min(RTO_NS << attempt, RTO_MAX_NS));
        }
    }

    /**
     * Gives seg of stream sid, direction dir (flow {@code out}) its delivery, as sent at sendVt (its own send, or a
     * heal): serialised after the link's previous segment, never before the previous delivery. Returns it.
     */
    long schedule(Stream st, int dir, Flow out, Flow.Segment seg, long sendVt) {
        long wireDone = Unsigned.saturatingAdd(Unsigned.max(out.linkFree, sendVt), fault.serializationNs(seg.bytes.length));
        out.linkFree = wireDone;
        Flight f = flight(st.sid, st.local(dir), st.peer(dir), dir, seg.index);
        seg.delivNs = Unsigned.max(out.lastDeliv, Unsigned.saturatingAdd(wireDone, f.delay()));
        seg.retransmits = f.retransmits();
        out.lastDeliv = seg.delivNs;
        return seg.delivNs;
    }
}
