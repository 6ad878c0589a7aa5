package dev.weft.check;

import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;

/**
 * {@code per-channel-fifo}: datagrams of one channel (src, dst) must be delivered in send order
 * (invariants-and-checkers.md §2.1). Remembers each enqueued tie's channel sequence number and the highest
 * sequence number delivered per channel.
 */
public final class PerChannelFifo extends DatagramInvariant {

    public static final String NAME = "per-channel-fifo";

    /** tie → the channel sequence number it was sent with (the channel itself is taken from the delivery). */
    private final LongPairMap sentByTie = new LongPairMap();
    /** channel (packed src, packed dst) → highest sequence number delivered on it. */
    private final LongPairMap maxDelivered = new LongPairMap();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    String enqueued(Event.Send send, SendOutcome.Enqueued enq) {
        sentByTie.put(enq.tie(), 0, send.chanSeq());
        return null;
    }

    @Override
    String delivered(long op, RecvOutcome.Delivered d) {
        int sent = sentByTie.indexOf(d.tie(), 0);
        if (sent < 0) {
            return null;
        }
        long s = sentByTie.valueAt(sent);
        // The key is the channel named by the delivery, not the one remembered at send time (spec §2.1).
        long src = pack(d.src());
        long dst = pack(d.dst());
        int at = maxDelivered.indexOf(src, dst);
        long max = at < 0 ? 0 : maxDelivered.valueAt(at);
        if (at >= 0 && Long.compareUnsigned(s, max) < 0) {
            return "channel " + d.src().text() + " \u2192 " + d.dst().text() + ": datagram with send order "
                    + Long.toUnsignedString(s) + " delivered after send order " + Long.toUnsignedString(max)
                    + " (reordered)";
        }
        maxDelivered.put(src, dst, s);
        return null;
    }

    /** An address as one long: ip (u32) above port (u16), so distinct addresses stay distinct. */
    private static long pack(VAddr a) {
        return a.ip() << 16 | a.port();
    }
}
