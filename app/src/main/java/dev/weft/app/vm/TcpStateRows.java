package dev.weft.app.vm;

import dev.weft.app.vm.StateViewModel.Change;
import dev.weft.app.vm.StateViewModel.Row;
import dev.weft.tcp.TcpState;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The state panel's TCP rows (docs/workbench.md "State"): a "listener" row per listening socket (address, conn,
 * backlog, streams not yet accepted) and a "tcp" row per stream (sid, state, both ends with their conns, and per
 * direction the bytes written, in flight and delivered-unread), each marked with how the op changed it. Listeners
 * and streams come sorted from {@link TcpState}; a row that went away is listed after the others.
 */
final class TcpStateRows {

    private TcpStateRows() { }

    static List<Row> diff(TcpState before, TcpState now) {
        List<Row> out = new ArrayList<>();
        Map<String, String> listenersBefore = new HashMap<>();   // lookups only
        for (TcpState.Listener l : before.listeners()) listenersBefore.put(l.addr().text(), listener(l));
        Map<String, String> listenersNow = new HashMap<>();
        for (TcpState.Listener l : now.listeners()) {
            String detail = listener(l);
            listenersNow.put(l.addr().text(), detail);
            out.add(new Row("listener", l.addr().text(), detail, change(listenersBefore.get(l.addr().text()), detail)));
        }
        for (TcpState.Listener l : before.listeners()) {
            if (!listenersNow.containsKey(l.addr().text())) out.add(new Row("listener", l.addr().text(), listener(l), Change.REMOVED));
        }
        Map<Long, String> streamsBefore = new HashMap<>();       // lookups only
        for (TcpState.Connection c : before.connections()) streamsBefore.put(c.sid(), stream(c));
        for (TcpState.Connection c : now.connections()) {
            String detail = stream(c);
            out.add(new Row("tcp", key(c), detail, change(streamsBefore.get(c.sid()), detail)));
        }
        return out;
    }

    private static Change change(String before, String now) {
        return before == null ? Change.ADDED : before.equals(now) ? Change.SAME : Change.CHANGED;
    }

    private static String listener(TcpState.Listener l) {
        StringBuilder pending = new StringBuilder();
        for (long sid : l.pending()) pending.append(pending.length() == 0 ? "" : ",").append(Long.toUnsignedString(sid));
        return "listening, conn " + u(l.conn()) + ", backlog " + u(l.backlog())
                + (l.pending().isEmpty() ? "" : ", not accepted: sid " + pending);
    }

    /** "sid 0  10.0.0.1:40000 → 10.0.0.2:80" */
    private static String key(TcpState.Connection c) {
        return "sid " + u(c.sid()) + "  " + c.connector().text() + " \u2192 " + c.acceptor().text();
    }

    private static String stream(TcpState.Connection c) {
        return c.state() + "  conn " + u(c.connectorConn()) + " \u2194 " + (c.acceptorConn() == -1 ? "(not accepted)"
                : "conn " + u(c.acceptorConn())) + "  \u2192 " + direction(c.toAcceptor()) + "  \u2190 " + direction(c.toConnector());
    }

    /** "18 B written, 0 in flight, 18 unread" (stalled when a partition holds it). */
    private static String direction(TcpState.Direction d) {
        return u(d.written()) + " B written, " + u(d.inFlight()) + " in flight, " + u(d.unread()) + " unread"
                + (d.stalled() ? " (stalled)" : "");
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }
}
