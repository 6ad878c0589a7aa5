package dev.weft.tcp;

import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.VAddr;

/**
 * One connection (sid): its two ends (side 0 the connector, side 1 the acceptor), the handshake's outcome and
 * instants, the two directions (flow 0 connector to acceptor, flow 1 back) and how each end has closed. The broker
 * connection of the acceptor's end is unknown (-1) until the accepted socket adopts it.
 */
final class Stream {

    static final long NO_CONN = -1L;

    final long sid;
    final VAddr connector;
    final VAddr acceptor;
    final long connectorConn;
    final long listenerConn;
    final TcpConnectOutcome outcome;
    /** The SYN's arrival at the listener (Flow.NEVER when it never arrives). */
    final long synNs;
    final Flow[] flows;
    long acceptorConn = NO_CONN;
    boolean accepted;
    /** Instant from which both ends see the reset (Flow.NEVER: not reset). */
    long resetAt = Flow.NEVER;
    /** Per side: the end was closed (its socket's last fd), an abort was asked, reading was shut down. */
    final boolean[] closed = new boolean[2];
    final boolean[] aborted = new boolean[2];
    final boolean[] readShut = new boolean[2];

    Stream(long sid, VAddr connector, VAddr acceptor, long connectorConn, long listenerConn,
           TcpConnectOutcome outcome, long synNs, long estNs) {
        this.sid = sid;
        this.connector = connector;
        this.acceptor = acceptor;
        this.connectorConn = connectorConn;
        this.listenerConn = listenerConn;
        this.outcome = outcome;
        this.synNs = synNs;
        // Data from the connector arrives after its SYN, data from the acceptor after its SYN-ACK.
        this.flows = new Flow[] {new Flow(synNs), new Flow(estNs)};
    }

    private Stream(Stream o) {
        sid = o.sid;
        connector = o.connector;
        acceptor = o.acceptor;
        connectorConn = o.connectorConn;
        listenerConn = o.listenerConn;
        outcome = o.outcome;
        synNs = o.synNs;
        flows = new Flow[] {o.flows[0].copy(), o.flows[1].copy()};
        acceptorConn = o.acceptorConn;
        accepted = o.accepted;
        resetAt = o.resetAt;
        System.arraycopy(o.closed, 0, closed, 0, 2);
        System.arraycopy(o.aborted, 0, aborted, 0, 2);
        System.arraycopy(o.readShut, 0, readShut, 0, 2);
    }

    Stream copy() {
        return new Stream(this);
    }

    boolean established() {
        return outcome instanceof TcpConnectOutcome.Established;
    }

    /** The instant the connector learns the handshake's end: est, refused or timed-out time. */
    long connectEndNs() {
        if (outcome instanceof TcpConnectOutcome.Established e) return e.estNs();
        if (outcome instanceof TcpConnectOutcome.Refused r) return r.atNs();
        if (outcome instanceof TcpConnectOutcome.TimedOut t) return t.atNs();
        return Flow.NEVER;
    }

    VAddr local(int side) {
        return side == 0 ? connector : acceptor;
    }

    VAddr peer(int side) {
        return side == 0 ? acceptor : connector;
    }

    long conn(int side) {
        return side == 0 ? connectorConn : acceptorConn;
    }

    /** The flow this side writes into. */
    Flow out(int side) {
        return flows[side];
    }

    /** The flow this side reads from. */
    Flow in(int side) {
        return flows[1 - side];
    }

    boolean resetBy(long horizon) {
        return Flow.arrived(resetAt, horizon);
    }

    boolean isReset() {
        return resetAt != Flow.NEVER;
    }
}
