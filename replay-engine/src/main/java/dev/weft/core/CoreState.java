package dev.weft.core;

import dev.weft.log.VAddr;
import dev.weft.tcp.TcpState;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * An immutable, sorted picture of the core: counters, every connection's queue (conn ids in unsigned order,
 * each queue in (deliv, tie) unsigned order — the order recv would pop), the bindings and the next
 * per-channel sequence numbers, and the TCP streams' picture. Equal states are equal and print identically.
 */
public record CoreState(long vt, long tie, long sent, long dropped, SortedMap<Long, List<PendingDatagram>> queues,
                        SortedMap<VAddr, Long> bindings, SortedMap<Channel, Long> nextChanSeq, TcpState tcp) {

    /** A state without TCP streams (a UDP-only core). */
    public CoreState(long vt, long tie, long sent, long dropped, SortedMap<Long, List<PendingDatagram>> queues,
                     SortedMap<VAddr, Long> bindings, SortedMap<Channel, Long> nextChanSeq) {
        this(vt, tie, sent, dropped, queues, bindings, nextChanSeq, TcpState.EMPTY);
    }

    public CoreState {
        TreeMap<Long, List<PendingDatagram>> q = new TreeMap<>(Long::compareUnsigned);
        for (Map.Entry<Long, List<PendingDatagram>> e : queues.entrySet()) q.put(e.getKey(), List.copyOf(e.getValue()));
        queues = Collections.unmodifiableSortedMap(q);
        bindings = Collections.unmodifiableSortedMap(new TreeMap<>(bindings));
        nextChanSeq = Collections.unmodifiableSortedMap(new TreeMap<>(nextChanSeq));
    }

    /** Number of datagrams pending over all queues. */
    public long pendingCount() {
        long n = 0;
        for (List<PendingDatagram> q : queues.values()) n += q.size();
        return n;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("CoreState[vt=").append(Long.toUnsignedString(vt))
                .append(", tie=").append(Long.toUnsignedString(tie))
                .append(", sent=").append(Long.toUnsignedString(sent))
                .append(", dropped=").append(Long.toUnsignedString(dropped)).append(", queues={");
        String sep = "";
        for (Map.Entry<Long, List<PendingDatagram>> e : queues.entrySet()) {
            sb.append(sep).append(Long.toUnsignedString(e.getKey())).append('=').append(e.getValue());
            sep = ", ";
        }
        sb.append("}, bindings={");
        sep = "";
        for (Map.Entry<VAddr, Long> e : bindings.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(Long.toUnsignedString(e.getValue()));
            sep = ", ";
        }
        sb.append("}, nextChanSeq={");
        sep = "";
        for (Map.Entry<Channel, Long> e : nextChanSeq.entrySet()) {
            sb.append(sep).append(e.getKey()).append('=').append(Long.toUnsignedString(e.getValue()));
            sep = ", ";
        }
        sb.append("}");
        if (!tcp.equals(TcpState.EMPTY)) sb.append(", tcp=").append(tcp);
        return sb.append("]").toString();
    }
}
