package dev.weft.check;

import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code per-channel-fifo}: datagrams of one channel (src, dst) must be delivered in send order
 * (invariants-and-checkers.md §2.1). Remembers each enqueued tie's channel sequence number and the highest
 * sequence number delivered per channel.
 */
public final class PerChannelFifo implements Invariant {

    public static final String NAME = "per-channel-fifo";

    private record Channel(VAddr src, VAddr dst) {
    }

    private record Sent(Channel channel, long chanSeq) {
    }

    private final Map<Long, Sent> sentByTie = new HashMap<>();
    private final Map<Channel, Long> maxDelivered = new HashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String offer(long op, long vt, Event event) {
        if (event instanceof Event.Send send && send.outcome() instanceof SendOutcome.Enqueued enq) {
            sentByTie.put(enq.tie(), new Sent(new Channel(send.src(), send.dst()), send.chanSeq()));
            return null;
        }
        if (event instanceof Event.Recv recv && recv.outcome() instanceof RecvOutcome.Delivered d) {
            Sent sent = sentByTie.get(d.tie());
            if (sent == null) {
                return null;
            }
            long s = sent.chanSeq();
            // The key is the channel named by the delivery, not the one remembered at send time (spec §2.1).
            Channel key = new Channel(d.src(), d.dst());
            Long max = maxDelivered.get(key);
            if (max != null && Long.compareUnsigned(s, max) < 0) {
                return "channel " + d.src().text() + " \u2192 " + d.dst().text() + ": datagram with send order "
                        + Long.toUnsignedString(s) + " delivered after send order " + Long.toUnsignedString(max)
                        + " (reordered)";
            }
            maxDelivered.put(key, s);
        }
        return null;
    }
}
