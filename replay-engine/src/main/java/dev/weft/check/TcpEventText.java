package dev.weft.check;

import dev.weft.log.Event;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;

/** One-line human text of the TCP, ext and signal records, in the style of {@link EventText}. */
final class TcpEventText {

    private TcpEventText() {
    }

    static String line(Event event) {
        if (event instanceof Event.TcpSend s) {
            return "conn " + u(s.conn()) + " tcp send sid " + u(s.sid()) + " offset " + u(s.offset()) + ", "
                    + s.payload().length() / 2 + " bytes: " + send(s.outcome());
        } else if (event instanceof Event.TcpRecv r) {
            return "conn " + u(r.conn()) + " tcp " + (r.peek() ? "peek" : "read") + " sid " + u(r.sid())
                    + (r.blocking() ? " (blocking)" : "") + ": " + recv(r.outcome());
        } else if (event instanceof Event.TcpBind b) {
            return "conn " + u(b.conn()) + " tcp bound " + b.addr().text();
        } else if (event instanceof Event.TcpListen l) {
            return "conn " + u(l.conn()) + " tcp listens (backlog " + u(l.backlog()) + ")";
        } else if (event instanceof Event.TcpConnect c) {
            return "conn " + u(c.conn()) + " tcp connect sid " + u(c.sid()) + " " + c.src().text() + " \u2192 "
                    + c.dst().text() + ": " + connect(c.outcome());
        } else if (event instanceof Event.TcpEstablished e) {
            return "conn " + u(e.conn()) + " tcp connect sid " + u(e.sid()) + " finished: " + connect(e.outcome());
        } else if (event instanceof Event.TcpAccept a) {
            String head = "conn " + u(a.conn()) + " tcp accept" + (a.blocking() ? " (blocking)" : "") + ": ";
            if (a.outcome() instanceof TcpAcceptOutcome.Accepted ok) {
                return head + "sid " + u(ok.sid()) + " from " + ok.src().text() + " (SYN at vt " + u(ok.synNs()) + "ns)";
            }
            return head + "empty";
        } else if (event instanceof Event.TcpAdopt a) {
            return "conn " + u(a.conn()) + " tcp adopts sid " + u(a.sid());
        } else if (event instanceof Event.TcpShutdown sh) {
            return "conn " + u(sh.conn()) + " tcp shutdown " + sh.how() + " sid " + u(sh.sid());
        } else if (event instanceof Event.TcpClose c) {
            return "conn " + u(c.conn()) + " tcp close sid " + u(c.sid()) + (c.reset() ? ": RESET sent" : ": FIN sent");
        } else if (event instanceof Event.TcpReset r) {
            return "tcp sid " + u(r.sid()) + " RESET (" + r.reason() + ") at vt " + u(r.atNs()) + "ns";
        } else if (event instanceof Event.TcpPartition p) {
            return "tcp partition from vt " + u(p.atNs()) + "ns: " + (p.spec().isEmpty() ? "healed" : p.spec());
        } else if (event instanceof Event.Ext x) {
            return "format extension " + x.name() + " version " + u(x.version());
        } else if (event instanceof Event.Signal g) {
            return "node " + u(g.node()) + " sent " + g.signal() + " (" + g.reason() + ")";
        }
        throw new IllegalArgumentException("no text for event kind " + event.kind());
    }

    private static String connect(TcpConnectOutcome o) {
        if (o instanceof TcpConnectOutcome.Established e) return "established at vt " + u(e.estNs()) + "ns";
        if (o instanceof TcpConnectOutcome.Refused r) return "REFUSED at vt " + u(r.atNs()) + "ns";
        if (o instanceof TcpConnectOutcome.TimedOut t) return "TIMED OUT at vt " + u(t.atNs()) + "ns";
        return "in progress";
    }

    private static String send(TcpSendOutcome o) {
        if (o instanceof TcpSendOutcome.Segment s) {
            return "delivery at vt " + u(s.delivNs()) + "ns" + (s.retransmits() > 0 ? " after " + u(s.retransmits())
                    + " retransmission(s)" : "");
        }
        if (o instanceof TcpSendOutcome.Stalled) return "stalled by a partition";
        if (o instanceof TcpSendOutcome.Full) return "receive buffer full";
        return o instanceof TcpSendOutcome.Reset ? "stream reset" : "closed for writing";
    }

    private static String recv(TcpRecvOutcome o) {
        if (o instanceof TcpRecvOutcome.Data d) {
            return d.payload().length() / 2 + " bytes at offset " + u(d.offset()) + " (delivered at vt "
                    + u(d.delivNs()) + "ns)";
        }
        return o.kind();
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }
}
