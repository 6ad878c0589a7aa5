package dev.weft.launcher.state;

import dev.weft.tcp.TcpState;

/**
 * The TCP part of {@code weft state}'s text (docs/tcp.md "State"): listeners by address, then streams by sid with
 * both ends and each direction's bytes. Printed only when the run had TCP, so a UDP-only state reads as before.
 */
final class TcpStateText {

    private TcpStateText() {
    }

    static void render(StringBuilder sb, TcpState t) {
        if (t.listeners().isEmpty() && t.connections().isEmpty()) return;
        sb.append("  tcp listeners:").append(t.listeners().isEmpty() ? " none" : "").append('\n');
        for (TcpState.Listener l : t.listeners()) {
            sb.append("    ").append(l.addr().text()).append(" (conn ").append(u(l.conn())).append(", backlog ")
                    .append(u(l.backlog())).append("): ").append(l.pending().size()).append(" not accepted");
            if (!l.pending().isEmpty()) {
                sb.append(" (sid");
                for (long sid : l.pending()) sb.append(' ').append(u(sid));
                sb.append(')');
            }
            sb.append('\n');
        }
        sb.append("  tcp connections (bytes as of vt ").append(u(t.asOfNs())).append(" ns):")
                .append(t.connections().isEmpty() ? " none" : "").append('\n');
        for (TcpState.Connection c : t.connections()) {
            sb.append("    sid ").append(u(c.sid())).append(' ').append(c.state()).append("  ")
                    .append(c.connector().text()).append(" (conn ").append(u(c.connectorConn())).append(") \u21c4 ")
                    .append(c.acceptor().text()).append(c.acceptorConn() == -1 ? " (not adopted)" : " (conn "
                            + u(c.acceptorConn()) + ")").append('\n');
            direction(sb, "\u2192", c.toAcceptor());
            direction(sb, "\u2190", c.toConnector());
        }
    }

    private static void direction(StringBuilder sb, String arrow, TcpState.Direction d) {
        sb.append("      ").append(arrow).append(" written ").append(u(d.written())).append(", read ").append(u(d.read()))
                .append(", in flight ").append(u(d.inFlight())).append(", unread ").append(u(d.unread()))
                .append(d.stalled() ? ", stalled by a partition" : "").append('\n');
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }
}
