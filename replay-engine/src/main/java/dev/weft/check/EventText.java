package dev.weft.check;

import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;

/** One-line human text of an event, exactly as the violation report prints it (invariants-and-checkers.md §3). */
public final class EventText {

    private EventText() {
    }

    public static String line(Event event) {
        // Java 17 has no pattern matching for switch (preview only), hence the instanceof chain.
        if (event instanceof Event.Connect c) {
            return "conn " + u(c.conn()) + " connected";
        } else if (event instanceof Event.Hello h) {
            return "conn " + u(h.conn()) + " is node " + u(h.node());
        } else if (event instanceof Event.Bind b) {
            return "conn " + u(b.conn()) + " bound " + b.addr().text();
        } else if (event instanceof Event.Send s) {
            return "conn " + u(s.conn()) + " send " + s.src().text() + " \u2192 " + s.dst().text()
                    + " seq " + u(s.chanSeq()) + ": " + fate(s.outcome());
        } else if (event instanceof Event.Recv r) {
            return recv(r);
        } else if (event instanceof Event.Disconnect d) {
            return "conn " + u(d.conn()) + " disconnected";
        } else if (event instanceof Event.Violation v) {
            return "VIOLATION [" + v.invariant() + "]: " + v.message();
        } else if (!(event instanceof Event.End)) {
            return TcpEventText.line(event);
        } else {
            Event.End e = (Event.End) event;
            return "end of run: " + u(e.events()) + " events, " + u(e.sent()) + " sent, " + u(e.dropped()) + " dropped";
        }
    }

    private static String fate(SendOutcome outcome) {
        if (outcome instanceof SendOutcome.Enqueued e) {
            return "enqueued, delivery at vt " + u(e.delivNs()) + "ns (tie " + u(e.tie()) + ")";
        }
        return outcome instanceof SendOutcome.Dropped ? "DROPPED by fault model" : "discarded (no receiver)";
    }

    private static String recv(Event.Recv r) {
        String head = "conn " + u(r.conn()) + " recv" + (r.blocking() ? " (blocking)" : "") + ": ";
        if (r.outcome() instanceof RecvOutcome.Delivered d) {
            return head + "delivered " + d.src().text() + " \u2192 " + d.dst().text()
                    + " (sent-at-vt " + u(d.delivNs()) + "ns, tie " + u(d.tie()) + ")";
        }
        return head + "empty";
    }

    private static String u(long v) {
        return Long.toUnsignedString(v);
    }
}
