package dev.weft.tcp;

import dev.weft.log.VAddr;
import java.util.List;

/**
 * A sorted picture of the stream model for {@code weft state} (docs/tcp.md "State"): listeners by address, streams by
 * sid, byte counts as of {@code asOfNs} (the latest instant an operation named).
 */
public record TcpState(long asOfNs, List<Listener> listeners, List<Connection> connections) {

    /** No listener, no stream. */
    public static final TcpState EMPTY = new TcpState(0, List.of(), List.of());

    public TcpState {
        listeners = List.copyOf(listeners);
        connections = List.copyOf(connections);
    }

    /** A listening socket: its address, broker connection, backlog and the sids waiting to be accepted, in order. */
    public record Listener(VAddr addr, long conn, long backlog, List<Long> pending) {
    }

    /**
     * A stream: sid, state ({@code syn_received}, {@code established}, {@code closing}, {@code closed}, {@code reset},
     * {@code refused}, {@code timed_out}), both ends (conn -1 while an accepted end awaits adoption) and each
     * direction (connector to acceptor first).
     */
    public record Connection(long sid, String state, VAddr connector, long connectorConn, VAddr acceptor,
                             long acceptorConn, Direction toAcceptor, Direction toConnector) {
    }

    /** One direction: bytes written, read, in flight (not delivered by asOfNs), delivered and unread; stalled by a cut. */
    public record Direction(long written, long read, long inFlight, long unread, boolean stalled) {
    }
}
