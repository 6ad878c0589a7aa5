package dev.weft.app.source;

import dev.weft.core.Channel;
import dev.weft.core.CoreState;
import dev.weft.core.PendingDatagram;
import dev.weft.log.VAddr;
import dev.weft.tcp.TcpState;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The broker state after an op, flattened for display and sorted deterministically: pending datagrams
 * per receiving connection in delivery order, bindings by address, next channel sequence numbers by channel, and the
 * TCP listeners and streams ({@link TcpState#EMPTY} for a run without TCP).
 */
public record StateSnapshot(long op, long vt, long tie, long sent, long dropped, List<Pending> pending,
                            List<Binding> bindings, List<ChannelSeq> channels, TcpState tcp) {

    /** A state without TCP. */
    public StateSnapshot(long op, long vt, long tie, long sent, long dropped, List<Pending> pending,
                         List<Binding> bindings, List<ChannelSeq> channels) {
        this(op, vt, tie, sent, dropped, pending, bindings, channels, TcpState.EMPTY);
    }

    public record Pending(long conn, VAddr src, VAddr dst, long delivNs, long tie, String payloadHex) { }

    public record Binding(VAddr addr, long conn) { }

    public record ChannelSeq(VAddr src, VAddr dst, long next) { }

    public static StateSnapshot empty(long op) {
        return new StateSnapshot(op, 0, 0, 0, 0, List.of(), List.of(), List.of());
    }

    /** The replay core's state after op, flattened (the core's maps are already in display order). */
    public static StateSnapshot of(long op, CoreState s) {
        List<Pending> pending = new ArrayList<>();
        for (Map.Entry<Long, List<PendingDatagram>> q : s.queues().entrySet()) {
            for (PendingDatagram d : q.getValue()) {
                pending.add(new Pending(q.getKey(), d.src(), d.dst(), d.delivNs(), d.tie(), d.payloadHex()));
            }
        }
        List<Binding> bindings = new ArrayList<>();
        for (Map.Entry<VAddr, Long> b : s.bindings().entrySet()) bindings.add(new Binding(b.getKey(), b.getValue()));
        List<ChannelSeq> channels = new ArrayList<>();
        for (Map.Entry<Channel, Long> c : s.nextChanSeq().entrySet()) {
            channels.add(new ChannelSeq(c.getKey().src(), c.getKey().dst(), c.getValue()));
        }
        return new StateSnapshot(op, s.vt(), s.tie(), s.sent(), s.dropped(), pending, bindings, channels, s.tcp());
    }
}
