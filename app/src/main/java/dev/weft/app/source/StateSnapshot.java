package dev.weft.app.source;

import dev.weft.log.VAddr;

import java.util.List;

/**
 * The broker state after an op, flattened for display and sorted deterministically: pending datagrams
 * per receiving connection in delivery order, bindings by address, next channel sequence numbers by channel.
 */
public record StateSnapshot(long op, long vt, long tie, long sent, long dropped, List<Pending> pending,
                            List<Binding> bindings, List<ChannelSeq> channels) {

    public record Pending(long conn, VAddr src, VAddr dst, long delivNs, long tie, String payloadHex) { }

    public record Binding(VAddr addr, long conn) { }

    public record ChannelSeq(VAddr src, VAddr dst, long next) { }

    public static StateSnapshot empty(long op) {
        return new StateSnapshot(op, 0, 0, 0, 0, List.of(), List.of(), List.of());
    }
}
