package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.TcpRecvOutcome;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Links a stream's writes to the reads that take their bytes, for the timeline's arrows: a tcp_recv's partner is
 * the tcp_send whose byte range holds the first byte it read, and that send's partner is the first such read.
 * Each stream (sid) has two directions, told apart by which of its connections wrote. Fed in op order by the
 * model's builder; bytes fully read are forgotten.
 */
final class TcpFlows {

    /** Per stream: its connector's and acceptor's connection. */
    private final Map<Long, long[]> ends = new HashMap<>();
    /** Per stream and direction (sid * 2 + 0 for connector → acceptor): write offset → {op, end offset}. */
    private final Map<Long, TreeMap<Long, long[]>> writes = new HashMap<>();

    /** The connector connection of stream sid, or null before its tcp_connect. */
    Long connector(long sid) {
        long[] e = ends.get(sid);
        return e == null ? null : e[0];
    }

    void add(int op, Event e, int[] partner) {
        if (e instanceof Event.TcpConnect c) {
            ends.computeIfAbsent(c.sid(), k -> new long[] {-1, -1})[0] = c.conn();
        } else if (e instanceof Event.TcpAdopt a) {
            ends.computeIfAbsent(a.sid(), k -> new long[] {-1, -1})[1] = a.conn();
        } else if (e instanceof Event.TcpSend s && s.payload() != null && !s.payload().isEmpty()) {
            long len = s.payload().length() / 2;
            writes.computeIfAbsent(key(s.sid(), s.conn(), true), k -> new TreeMap<>(Long::compareUnsigned))
                    .put(s.offset(), new long[] {op, s.offset() + len});
        } else if (e instanceof Event.TcpRecv r && r.outcome() instanceof TcpRecvOutcome.Data d) {
            TreeMap<Long, long[]> dir = writes.get(key(r.sid(), r.conn(), false));
            if (dir == null) return;
            Map.Entry<Long, long[]> w = dir.floorEntry(d.offset());
            if (w == null || Long.compareUnsigned(d.offset(), w.getValue()[1]) >= 0) return;
            int send = (int) w.getValue()[0];
            partner[op] = send;
            if (partner[send] == TimelineModel.NO_PARTNER) partner[send] = op;
            // Writes wholly before this read's start are read already.
            dir.headMap(w.getKey(), false).clear();
        }
    }

    /** The direction's key: a write by the connector, or a read by the acceptor, is direction 0. */
    private Long key(long sid, long conn, boolean writing) {
        long[] e = ends.get(sid);
        boolean byConnector = e != null && e[0] == conn;
        boolean connectorToAcceptor = writing == byConnector;
        return sid * 2 + (connectorToAcceptor ? 0 : 1);
    }
}
