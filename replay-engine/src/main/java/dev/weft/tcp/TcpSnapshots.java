package dev.weft.tcp;

import dev.weft.log.TcpConnectOutcome;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Builds the {@link TcpState} picture of the stream model (docs/tcp.md "State"): listeners by address, streams by sid. */
final class TcpSnapshots {

    private TcpSnapshots() {
    }

    /** Byte counts as of clock: in flight = written and not delivered by then. */
    static TcpState of(Map<Long, Socket> sockets, Collection<Stream> streams, long clock) {
        List<TcpState.Listener> listeners = new ArrayList<>();
        for (Map.Entry<Long, Socket> e : sockets.entrySet()) {
            Socket s = e.getValue();
            if (s.listening) listeners.add(new TcpState.Listener(s.local, e.getKey(), s.backlog, List.copyOf(s.pending)));
        }
        listeners.sort((x, y) -> x.addr().compareTo(y.addr()));
        List<TcpState.Connection> conns = new ArrayList<>();
        for (Stream st : streams) {
            conns.add(new TcpState.Connection(st.sid, stateText(st), st.connector, st.connectorConn, st.acceptor,
                    st.acceptorConn, direction(st.flows[0], clock), direction(st.flows[1], clock)));
        }
        return new TcpState(clock, listeners, conns);
    }

    private static TcpState.Direction direction(Flow f, long clock) {
        long unread = f.deliveredUnread(clock);
        return new TcpState.Direction(f.written, f.consumed, f.outstanding() - unread, unread, f.hasStalled());
    }

    private static String stateText(Stream st) {
        if (st.outcome instanceof TcpConnectOutcome.Refused) return "refused";
        if (st.outcome instanceof TcpConnectOutcome.TimedOut) return "timed_out";
        if (st.isReset()) return "reset";
        if (st.closed[0] && st.closed[1]) return "closed";
        if (st.flows[0].finDeliv != Flow.NEVER || st.flows[1].finDeliv != Flow.NEVER || st.closed[0] || st.closed[1]) {
            return "closing";
        }
        if (!st.accepted) return "syn_received";
        return "established";
    }
}
