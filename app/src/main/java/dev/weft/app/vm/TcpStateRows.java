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
 * backlog, streams not yet accepted) and three rows per stream: "tcp" (sid, state, both ends with their conns and
 * addresses), then "tcp →" and "tcp ←" (per direction the bytes written, in flight and delivered-unread), each
 * marked with how the op changed it. Listeners
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
        for (TcpState.Connection c : before.connections()) {   // keyed sid*3 + line: ends, then each direction
            streamsBefore.put(c.sid() * 3, c.state() + ends(c));
            streamsBefore.put(c.sid() * 3 + 1, direction(c.toAcceptor()));
            streamsBefore.put(c.sid() * 3 + 2, direction(c.toConnector()));
        }
        for (TcpState.Connection c : now.connections()) {
            String sid = "sid " + u(c.sid());
            out.add(row("tcp", sid + "  " + c.state(), ends(c), streamsBefore.get(c.sid() * 3)));
            out.add(row("tcp \u2192", sid + "  connector \u2192 acceptor", direction(c.toAcceptor()), streamsBefore.get(c.sid() * 3 + 1)));
            out.add(row("tcp \u2190", sid + "  acceptor \u2192 connector", direction(c.toConnector()), streamsBefore.get(c.sid() * 3 + 2)));
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

    /** A stream's row; {@code compared} is how the row read before the op ({@code state + detail} for the ends row). */
    private static Row row(String section, String key, String detail, String before) {
        String now = section.equals("tcp") ? key.substring(key.lastIndexOf(' ') + 1) + detail : detail;
        return new Row(section, key, detail, change(before, now));
    }

    /** "conn 2 127.0.0.1:40000 ↔ conn 3 127.0.0.2:6379" */
    private static String ends(TcpState.Connection c) {
        return "conn " + u(c.connectorConn()) + " " + c.connector().text() + " \u2194 "
                + (c.acceptorConn() == -1 ? "(not accepted)" : "conn " + u(c.acceptorConn())) + " " + c.acceptor().text();
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
