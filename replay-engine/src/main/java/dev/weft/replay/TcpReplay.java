package dev.weft.replay;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.net.NetSpecException;
import dev.weft.tcp.TcpException;
import dev.weft.tcp.TcpNetwork;
import java.util.HashMap;
import java.util.Map;

/**
 * Re-executes the TCP records (docs/weft-log-format.md "TCP streams") against the core's stream model and returns
 * the replayed event, to be compared with the record like any other. What a record cannot carry is taken from it
 * as an input, and nothing else:
 * <ul>
 * <li>the horizon of an accept or read is the instant its outcome proves (a data read's {@code deliv_ns}, an accept's
 *     {@code syn_ns}, the FIN's or reset's arrival for eof and reset); an {@code empty} is accepted when nothing had
 *     arrived by the highest horizon the connection's earlier outcomes proved (horizons of a socket never go back);
 * <li>a refused write ({@code full}, {@code reset}, {@code closed}) records no bytes: the model must refuse any write
 *     at that point (else the replayed outcome is a segment and replay diverges);
 * <li>a close that reset its peer may have followed an abort (SO_LINGER 0), which has no record of its own.
 * </ul>
 * Per connection state (horizon floors) lives here, so a copy for a checkpoint copies it.
 */
final class TcpReplay {

    private final Map<Long, Long> horizonFloor;

    TcpReplay() {
        this(new HashMap<>());
    }

    private TcpReplay(Map<Long, Long> horizonFloor) {
        this.horizonFloor = horizonFloor;
    }

    TcpReplay copy() {
        return new TcpReplay(new HashMap<>(horizonFloor));
    }

    /** The replayed form of TCP record r (e is its event). */
    Event step(TcpNetwork tcp, LogRecord r, Event e) throws ReplayException {
        try {
            return replay(tcp, e);
        } catch (TcpException ex) {
            throw new ReplayException("op " + Long.toUnsignedString(r.op()) + ": " + e.kind()
                    + " refused by the stream model: " + ex.getMessage(), r.op());
        } catch (NetSpecException ex) {
            throw new ReplayException("op " + Long.toUnsignedString(r.op()) + ": tcp_partition spec: " + ex.getMessage(),
                    r.op());
        } catch (IllegalArgumentException ex) { // bad hex payload
            throw new ReplayException("op " + Long.toUnsignedString(r.op()) + ": " + e.kind() + ": " + ex.getMessage(),
                    r.op());
        }
    }

    private Event replay(TcpNetwork tcp, Event e) throws TcpException, NetSpecException {
        if (e instanceof Event.TcpSend s) {
            return send(tcp, s);
        } else if (e instanceof Event.TcpRecv rv) {
            return recv(tcp, rv);
        } else if (e instanceof Event.TcpBind b) {
            return new Event.TcpBind(b.conn(), tcp.bind(b.conn(), b.addr()));
        } else if (e instanceof Event.TcpListen l) {
            tcp.listen(l.conn(), l.backlog());
            return e;
        } else if (e instanceof Event.TcpConnect c) {
            TcpNetwork.ConnectResult res = tcp.connect(c.conn(), c.src().ip(), c.dst(), c.sendVt());
            TcpConnectOutcome out = c.outcome() instanceof TcpConnectOutcome.Pending ? c.outcome() : res.outcome();
            return new Event.TcpConnect(c.conn(), res.sid(), res.src(), c.dst(), c.sendVt(), out);
        } else if (e instanceof Event.TcpEstablished est) {
            return new Event.TcpEstablished(est.conn(), tcp.sidOf(est.conn()), tcp.connectOutcome(est.conn()));
        } else if (e instanceof Event.TcpAccept a) {
            return accept(tcp, a);
        } else if (e instanceof Event.TcpAdopt a) {
            tcp.adopt(a.conn(), a.sid());
            return e;
        } else if (e instanceof Event.TcpShutdown sh) {
            boolean rd = !sh.how().equals(Event.TcpShutdown.WR);
            boolean wr = !sh.how().equals(Event.TcpShutdown.RD);
            return new Event.TcpShutdown(sh.conn(), tcp.shutdown(sh.conn(), rd, wr), sh.how());
        } else if (e instanceof Event.TcpClose c) {
            if (c.reset() && tcp.sidOf(c.conn()) >= 0) tcp.abort(c.conn());
            TcpNetwork.CloseResult res = tcp.close(c.conn());
            return res == null ? new Event.TcpClose(c.conn(), -1, false) : new Event.TcpClose(c.conn(), res.sid(), res.reset());
        } else if (e instanceof Event.TcpReset rs) {
            if (rs.reason().equals(Event.TcpReset.STALL)) {
                // the model decides when a stall resets: replay checks the recorded instant is that one
                long due = tcp.stallDeadline(rs.sid());
                if (due != rs.atNs()) return new Event.TcpReset(rs.sid(), rs.reason(), due);
            }
            tcp.reset(rs.sid(), rs.atNs());
            return e;
        } else if (e instanceof Event.TcpPartition p) {
            tcp.partitionAt(p.atNs(), p.spec());
            return e;
        }
        throw new IllegalStateException("not a TCP record: " + e.kind());
    }

    private Event send(TcpNetwork tcp, Event.TcpSend s) throws TcpException {
        TcpSendOutcome recorded = s.outcome();
        if (recorded instanceof TcpSendOutcome.Segment || recorded instanceof TcpSendOutcome.Stalled) {
            TcpNetwork.WriteResult w = tcp.writeHex(s.conn(), s.payload(), s.sendVt());
            String payload = w.accepted() * 2 == s.payload().length() ? s.payload()
                    : s.payload().substring(0, w.accepted() * 2);
            return new Event.TcpSend(s.conn(), w.sid(), w.offset(), s.sendVt(), payload, w.outcome());
        }
        TcpSendOutcome refusal = tcp.refusal(s.conn(), s.sendVt());
        // null: the model had room, so the write would have been a segment (shown as deliv_ns 0 in the divergence)
        TcpSendOutcome out = refusal == null ? new TcpSendOutcome.Segment(0, 0) : refusal;
        return new Event.TcpSend(s.conn(), tcp.sidOf(s.conn()), tcp.writeOffset(s.conn()), s.sendVt(), "", out);
    }

    private Event recv(TcpNetwork tcp, Event.TcpRecv rv) throws TcpException {
        long conn = rv.conn();
        long floor = horizonFloor.getOrDefault(conn, 0L);
        TcpRecvOutcome recorded = rv.outcome();
        long horizon;
        if (recorded instanceof TcpRecvOutcome.Data d) {
            horizon = d.delivNs();
        } else if (recorded instanceof TcpRecvOutcome.Eof) {
            horizon = tcp.finArrival(conn);
        } else if (recorded instanceof TcpRecvOutcome.Reset) {
            horizon = tcp.resetInstant(conn);
        } else {
            horizon = floor;
        }
        if (horizon == TcpNetwork.NEVER) horizon = floor; // nothing proves it: replay at the floor, and diverge
        TcpNetwork.ReadResult res = tcp.read(conn, rv.max(), rv.peek(), horizon);
        raiseFloor(conn, horizon);
        return new Event.TcpRecv(conn, res.sid(), rv.max(), rv.peek(), rv.blocking(), res.outcome());
    }

    private Event accept(TcpNetwork tcp, Event.TcpAccept a) throws TcpException {
        long floor = horizonFloor.getOrDefault(a.conn(), 0L);
        long horizon = a.outcome() instanceof TcpAcceptOutcome.Accepted ok ? ok.synNs() : floor;
        TcpAcceptOutcome out = tcp.accept(a.conn(), horizon);
        raiseFloor(a.conn(), horizon);
        return new Event.TcpAccept(a.conn(), a.blocking(), out);
    }

    private void raiseFloor(long conn, long horizon) {
        long floor = horizonFloor.getOrDefault(conn, 0L);
        if (Long.compareUnsigned(horizon, floor) > 0) horizonFloor.put(conn, horizon);
    }
}
