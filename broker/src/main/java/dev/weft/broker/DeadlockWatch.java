package dev.weft.broker;

import dev.weft.log.VAddr;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The single-host sequencer's bookkeeping for the deadlock verdict: which node each connection belongs to, its bound
 * address, and which parked blocking receives the shim marked as "the whole node waits here with no deadline".
 * Not thread-safe: the sequencer calls it under its ordering lock.
 */
final class DeadlockWatch {
    private final Map<Long, Long> nodeOf = new HashMap<>();
    private final Map<Long, VAddr> addrOf = new HashMap<>();
    /** Parked receives whose node waits in them forever, by conn (sorted: the message names the lowest). */
    private final TreeSet<Long> forever = new TreeSet<>();
    /** What a held TCP wait marked "forever" waits in ({@code tcp_read (sid 0)}), by conn. */
    private final Map<Long, String> tcpWhat = new HashMap<>();

    void hello(long conn, long node) {
        nodeOf.put(conn, node);
    }

    java.util.Optional<Long> nodeOfConn(long conn) {
        return java.util.Optional.ofNullable(nodeOf.get(conn));
    }

    void bind(long conn, VAddr addr) {
        addrOf.put(conn, addr);
    }

    void parked(long conn, boolean waitsForever) {
        if (waitsForever) {
            forever.add(conn);
        }
    }

    /** A held TCP wait whose node waits in it forever (the shim's TcpWait flag {@code FOREVER}). */
    void parkedTcp(long conn, String what) {
        forever.add(conn);
        tcpWhat.put(conn, what);
    }

    /** A datagram reached the parked receive, or the held TCP wait was answered or taken back. */
    void woken(long conn) {
        forever.remove(conn);
        tcpWhat.remove(conn);
    }

    void disconnected(long conn) {
        forever.remove(conn);
        tcpWhat.remove(conn);
        nodeOf.remove(conn);
        addrOf.remove(conn);
    }

    /** node → "recv on ADDR" if every live node waits forever in a still-parked receive, else null. */
    SortedMap<Long, String> waitsOf(Collection<Long> liveNodes, Set<Long> parkedConns) {
        SortedMap<Long, String> waits = new TreeMap<>(Long::compareUnsigned);
        for (long c : forever) {
            Long node = nodeOf.get(c);
            if (node != null && parkedConns.contains(c) && !waits.containsKey(node)) {
                VAddr a = addrOf.get(c);
                String tcp = tcpWhat.get(c);
                waits.put(node, tcp != null ? tcp : "recv on " + (a == null ? "an unbound socket" : a.toString()));
            }
        }
        for (long n : liveNodes) {
            if (!waits.containsKey(n)) {
                return null;
            }
        }
        waits.keySet().retainAll(new TreeSet<>(liveNodes));
        return waits;
    }
}
