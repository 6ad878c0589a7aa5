package dev.weft.export;

import dev.weft.log.Event;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The TCP part of a {@link PerfettoTrace} (docs/tcp.md "Where TCP shows"): slice names for the tcp_* records, a
 * flow per segment from its send to the read that consumed its first byte (flow name "tcp segment", ids numbered
 * 1, 2, … in send order, apart from the datagrams' "datagram" flows), and each connection as an async slice
 * ("tcp sid=S src → dst", category "tcp") from its connect to its reset, its failed connect, or its second close
 * (streams still open at the end of the log end there). Fed every record in log order; deterministic.
 */
final class TcpTrace {

    /** A segment not yet consumed: its flow id and where it ends in its direction. */
    private record Pending(long flowId, long end) { }

    private final Map<Long, Long> connector = new HashMap<>();          // sid -> connector conn; lookups only
    private final Map<Long, TreeMap<Long, Pending>> unread = new HashMap<>(); // sid*2+dir -> offset -> segment; lookups only
    /** An open connection's async slice: its name (repeated on its end) and the closes seen so far. */
    private record Open(String name, int closes) { }

    private final TreeMap<Long, Open> open = new TreeMap<>();           // sid -> open connection
    private long nextFlow = 1;
    private long flows;

    /** The slice name of a TCP record, or null when {@code e} is not one. */
    static String name(Event e) {
        if (e instanceof Event.TcpSend s) {
            return "tcp send sid=" + u(s.sid()) + " " + s.payload().length() / 2 + " B"
                    + (s.outcome() instanceof TcpSendOutcome.Segment ? "" : " (" + s.outcome().kind() + ")");
        }
        if (e instanceof Event.TcpRecv r) {
            String what = r.peek() ? "tcp peek sid=" : "tcp read sid=";
            return what + u(r.sid()) + (r.outcome() instanceof TcpRecvOutcome.Data d
                    ? " " + d.payload().length() / 2 + " B" : " (" + r.outcome().kind() + ")");
        }
        if (e instanceof Event.TcpConnect c) {
            return "tcp connect sid=" + u(c.sid()) + " \u2192 " + c.dst().text() + " (" + c.outcome().kind() + ")";
        }
        if (e instanceof Event.TcpAccept a) {
            return a.outcome() instanceof TcpAcceptOutcome.Accepted ok
                    ? "tcp accept sid=" + u(ok.sid()) + " from " + ok.src().text() : "tcp accept (empty)";
        }
        if (e instanceof Event.TcpClose c) return "tcp close sid=" + u(c.sid()) + (c.reset() ? " (reset)" : "");
        if (e instanceof Event.TcpReset r) return "tcp RESET sid=" + u(r.sid()) + " (" + r.reason() + ")";
        if (e instanceof Event.TcpRecord) return e.kind().replace('_', ' ');
        return null;
    }

    /** Writes the flow ends and connection slices {@code e} makes, at the slice it was drawn as. */
    void offer(Event e, JsonStreamWriter g, int tid, double ts) throws IOException {
        if (e instanceof Event.TcpConnect c) {
            connector.put(c.sid(), c.conn());
            if (c.outcome() instanceof TcpConnectOutcome.Refused || c.outcome() instanceof TcpConnectOutcome.TimedOut) {
                connection(g, "n", c.sid(), "tcp sid=" + u(c.sid()) + " " + c.src().text() + " \u2192 " + c.dst().text()
                        + " (" + c.outcome().kind() + ")", ts);
            } else {
                String name = "tcp sid=" + u(c.sid()) + " " + c.src().text() + " \u2192 " + c.dst().text();
                open.put(c.sid(), new Open(name, 0));
                connection(g, "b", c.sid(), name, ts);
            }
        } else if (e instanceof Event.TcpEstablished est && !(est.outcome() instanceof TcpConnectOutcome.Established)) {
            end(g, est.sid(), ts);
        } else if (e instanceof Event.TcpSend s && s.outcome() instanceof TcpSendOutcome.Segment
                || e instanceof Event.TcpSend st && st.outcome() instanceof TcpSendOutcome.Stalled) {
            Event.TcpSend s = (Event.TcpSend) e;
            long len = s.payload().length() / 2;
            if (len == 0) return;
            long id = nextFlow++;
            unread.computeIfAbsent(key(s.sid(), direction(s.sid(), s.conn())), k -> new TreeMap<>())
                    .put(s.offset(), new Pending(id, s.offset() + len));
            flow(g, "s", id, tid, ts);
        } else if (e instanceof Event.TcpRecv r && !r.peek() && r.outcome() instanceof TcpRecvOutcome.Data d) {
            TreeMap<Long, Pending> q = unread.get(key(r.sid(), 1 - direction(r.sid(), r.conn())));
            if (q == null) return;
            long end = d.offset() + d.payload().length() / 2;
            // every segment whose first byte this read consumed ends its flow here
            for (Map.Entry<Long, Pending> s : new ArrayList<>(q.subMap(d.offset(), true, end, false).entrySet())) {
                flow(g, "f", s.getValue().flowId(), tid, ts);
                flows++;
                q.remove(s.getKey());
            }
        } else if (e instanceof Event.TcpClose c) {
            Open o = open.get(c.sid());
            if (o != null && o.closes() + 1 >= 2) end(g, c.sid(), ts);
            else if (o != null) open.put(c.sid(), new Open(o.name(), o.closes() + 1));
        } else if (e instanceof Event.TcpReset r) {
            end(g, r.sid(), ts);
        }
    }

    /** Ends the connections still open at the last record, in sid order. */
    void finish(JsonStreamWriter g, double ts) throws IOException {
        for (long sid : List.copyOf(open.keySet())) end(g, sid, ts);
    }

    long flows() {
        return flows;
    }

    /** 0 for what the connector writes, 1 for the acceptor's (a conn that did not connect sid adopted it). */
    private int direction(long sid, long conn) {
        Long c = connector.get(sid);
        return c != null && c == conn ? 0 : 1;
    }

    private static long key(long sid, int dir) {
        return sid * 2 + dir;
    }

    private void end(JsonStreamWriter g, long sid, double ts) throws IOException {
        Open o = open.remove(sid);
        if (o != null) connection(g, "e", sid, o.name(), ts);
    }

    private static void connection(JsonStreamWriter g, String ph, long sid, String name, double ts) throws IOException {
        g.startObject();
        g.string("ph", ph);
        g.string("name", name);
        g.string("cat", "tcp");
        g.string("id", "0x" + Long.toHexString(sid));
        g.number("pid", PerfettoTrace.PID);
        g.number("ts", ts);
        g.endObject();
    }

    private static void flow(JsonStreamWriter g, String ph, long id, int tid, double ts) throws IOException {
        PerfettoTrace.flow(g, ph, "tcp segment", Long.toString(id), tid, ts);
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }
}
