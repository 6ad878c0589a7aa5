package dev.weft.broker;

import dev.weft.broker.wire.Request;
import dev.weft.core.Core;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.log.VAddr;
import dev.weft.tcp.TcpErrno;
import dev.weft.tcp.TcpException;
import dev.weft.tcp.TcpNetwork;
import dev.weft.text.Hex;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides the answer to one TCP request (docs/tcp.md) against the stream model at a horizon, applying and recording
 * what it does through {@link RecordingTcp}; shared by both sequencers, which differ only in the horizon they pass
 * (single host: {@link TcpNetwork#ALL}; windowed: the instant the answer holds at) and in when they ask. A request
 * that cannot be answered yet (a blocking read, accept, connect or write, a TcpWait) is not applied at all: the
 * attempt says so, with the earliest instant time alone could change that, and is asked again later.
 */
final class TcpAnswers {
    /** The instant type's "never" (u64 max), as the model's. */
    static final long NEVER = TcpNetwork.NEVER;
    private static final int ALWAYS_REPORTED = TcpNetwork.POLLERR | TcpNetwork.POLLHUP | TcpNetwork.POLLRDHUP;

    /**
     * An attempt: its answer (applied and recorded) and the instant it holds at; or, with a null answer, a request
     * that must wait, and the earliest instant ({@code atNs}) it could be answered by time alone (NEVER: only another
     * operation can).
     */
    record Attempt(TcpAnswer answer, long atNs) {
        boolean waits() {
            return answer == null;
        }
    }

    private final Core core;
    private final RecordingTcp tcp;
    private final TcpNetwork net;
    /** Whether replies carry the instant they hold at (windowed) or the core's high-water mark (single host). */
    private final boolean replyAtInstant;
    /** Non-blocking connects whose end the node has not learnt yet: conn → the instant the connect ends. */
    private final Map<Long, Long> pendingConnects = new HashMap<>();

    TcpAnswers(Core core, RecordingTcp tcp, boolean replyAtInstant) {
        this.core = core;
        this.tcp = tcp;
        this.net = tcp.net();
        this.replyAtInstant = replyAtInstant;
    }

    /**
     * Tries request r of conn (a socket of the node whose address is nodeIp).
     *
     * @param horizon the arrivals the answer may see (inclusive)
     * @param now     the node's virtual time for deadlines (a TcpWait's)
     */
    Attempt attempt(long conn, long nodeIp, Request.Tcp r, long horizon, long now) {
        noteConnectEnd(conn, horizon);
        try {
            if (r instanceof Request.TcpBind b) {
                VAddr at = tcp.bind(conn, b.addr().ip() == 0 ? new VAddr(nodeIp, b.addr().port()) : b.addr());
                return done(new TcpAnswer.Bound(at, vt(now)), now);
            }
            if (r instanceof Request.TcpListen l) {
                tcp.listen(conn, l.backlog());
                return done(new TcpAnswer.Ack(vt(now)), now);
            }
            if (r instanceof Request.TcpConnect c) {
                return connect(conn, nodeIp, c);
            }
            if (r instanceof Request.TcpAccept a) {
                return accept(conn, a, horizon, now);
            }
            if (r instanceof Request.TcpAdopt a) {
                tcp.adopt(conn, a.sid());
                return done(new TcpAnswer.Ack(vt(now)), now);
            }
            if (r instanceof Request.TcpWrite w) {
                return write(conn, w, horizon, now);
            }
            if (r instanceof Request.TcpRead rd) {
                return read(conn, rd, horizon, now);
            }
            if (r instanceof Request.TcpShutdown s) {
                tcp.shutdown(conn, s.how());
                return done(new TcpAnswer.Ack(vt(now)), now);
            }
            if (r instanceof Request.TcpWait w) {
                return waitFor(conn, w, horizon, now);
            }
            if (r instanceof Request.TcpStatus) {
                TcpNetwork.Status s = net.status(conn, horizon);
                return done(new TcpAnswer.Status(s.state(), s.soError(), orNone(s.local()), orNone(s.peer()),
                        s.unread(), s.room(), vt(now)), now);
            }
            throw new IllegalArgumentException("not answered here: " + r);
        } catch (TcpException e) {
            return done(new TcpAnswer.Error(e.errno().linux(), vt(now)), now);
        }
    }

    /** A TcpWait's Ready with the events that hold now (maybe none): what TcpUnwait hands back. */
    TcpAnswer readyNow(long conn, long events, long horizon, long now) {
        noteConnectEnd(conn, horizon);
        long mask = events | ALWAYS_REPORTED;
        return new TcpAnswer.Ready(net.readiness(conn, horizon).events() & mask, vt(now));
    }

    /** Forgets conn (its broker connection ended). */
    void forget(long conn) {
        pendingConnects.remove(conn);
    }

    private Attempt connect(long conn, long nodeIp, Request.TcpConnect c) throws TcpException {
        if (pendingConnects.containsKey(conn)) {
            throw new TcpException(TcpErrno.EALREADY, "a connect is in progress");
        }
        VAddr dst = c.dst().ip() == 0 ? new VAddr(nodeIp, c.dst().port()) : c.dst();
        TcpNetwork.ConnectResult res = tcp.connect(conn, nodeIp, dst, c.localVt(), c.nonblocking());
        long end = endOf(res.outcome());
        if (c.nonblocking()) {
            pendingConnects.put(conn, end);
            return done(new TcpAnswer.Ack(vt(c.localVt())), c.localVt());
        }
        // a blocking connect is applied at its send; its answer holds at the handshake's end
        if (res.outcome() instanceof TcpConnectOutcome.Established) {
            return done(new TcpAnswer.Connected(res.src(), dst, vt(end)), end);
        }
        TcpErrno e = res.outcome() instanceof TcpConnectOutcome.Refused ? TcpErrno.ECONNREFUSED : TcpErrno.ETIMEDOUT;
        return done(new TcpAnswer.Error(e.linux(), vt(end)), end);
    }

    private Attempt accept(long conn, Request.TcpAccept a, long horizon, long now) throws TcpException {
        TcpNetwork.Readiness rd = net.readiness(conn, horizon);
        if (a.blocking() && (rd.events() & TcpNetwork.POLLIN) == 0) {
            if (net.status(conn, horizon).state() != TcpNetwork.LISTENING) {
                throw new TcpException(TcpErrno.EINVAL, "accept on a socket that does not listen");
            }
            return new Attempt(null, rd.nextChangeNs());
        }
        TcpAcceptOutcome out = tcp.accept(conn, a.blocking(), horizon);
        if (out instanceof TcpAcceptOutcome.Accepted acc) {
            return done(new TcpAnswer.Accepted(acc.sid(), acc.src(), acc.dst(), vt(now)), now);
        }
        return done(new TcpAnswer.Empty(vt(now)), now);
    }

    private Attempt write(long conn, Request.TcpWrite w, long horizon, long now) throws TcpException {
        TcpNetwork.WriteResult res = tcp.write(conn, w.payload(), w.localVt(), !w.blocking());
        TcpSendOutcome out = res.outcome();
        if (out == TcpSendOutcome.FULL) {
            if (w.blocking()) {
                return new Attempt(null, NEVER); // room comes only from the reader's reads
            }
            return done(new TcpAnswer.Wrote(0, vt(now)), now);
        }
        if (out == TcpSendOutcome.RESET) {
            boolean reset = net.status(conn, horizon).soError() == TcpErrno.ECONNRESET.linux();
            return done(new TcpAnswer.Error((reset ? TcpErrno.ECONNRESET : TcpErrno.EPIPE).linux(), vt(now)), now);
        }
        if (out == TcpSendOutcome.CLOSED) {
            int st = net.status(conn, horizon).state();
            boolean never = st == TcpNetwork.CLOSED || st == TcpNetwork.CONNECTING;
            return done(new TcpAnswer.Error((never ? TcpErrno.ENOTCONN : TcpErrno.EPIPE).linux(), vt(now)), now);
        }
        return done(new TcpAnswer.Wrote(res.accepted(), vt(now)), now);
    }

    private Attempt read(long conn, Request.TcpRead rd, long horizon, long now) throws TcpException {
        TcpNetwork.ReadResult res = tcp.read(conn, rd.max(), rd.peek(), rd.blocking(), horizon);
        TcpRecvOutcome out = res.outcome();
        if (out instanceof TcpRecvOutcome.Data d) {
            return done(new TcpAnswer.Data(Hex.decode(d.payload()), vt(now)), now);
        }
        if (out == TcpRecvOutcome.EOF) {
            return done(new TcpAnswer.Eof(vt(now)), now);
        }
        if (out == TcpRecvOutcome.RESET) {
            return done(new TcpAnswer.Error(TcpErrno.ECONNRESET.linux(), vt(now)), now);
        }
        if (rd.blocking()) {
            return new Attempt(null, net.readiness(conn, horizon).nextChangeNs());
        }
        return done(new TcpAnswer.Empty(vt(now)), now);
    }

    private Attempt waitFor(long conn, Request.TcpWait w, long horizon, long now) {
        TcpNetwork.Readiness rd = net.readiness(conn, horizon);
        long ev = rd.events() & (w.events() | ALWAYS_REPORTED);
        if (ev != 0) {
            return done(new TcpAnswer.Ready(ev, vt(now)), now);
        }
        if (w.deadlineVt() != 0 && Long.compareUnsigned(w.deadlineVt(), now) <= 0) {
            return done(new TcpAnswer.Ready(0, vt(now)), now);
        }
        long wake = rd.nextChangeNs();
        if (w.deadlineVt() != 0 && (wake == NEVER || Long.compareUnsigned(w.deadlineVt(), wake) < 0)) {
            wake = w.deadlineVt();
        }
        return new Attempt(null, wake);
    }

    /** Records the end of conn's non-blocking connect once it is within the horizon (the node learns it now). */
    private void noteConnectEnd(long conn, long horizon) {
        Long end = pendingConnects.get(conn);
        if (end == null || Long.compareUnsigned(end, horizon) > 0) {
            return;
        }
        pendingConnects.remove(conn);
        try {
            tcp.established(conn);
        } catch (TcpException e) {
            throw new IllegalStateException("a pending connect without a stream", e);
        }
    }

    private static long endOf(TcpConnectOutcome o) {
        if (o instanceof TcpConnectOutcome.Established e) {
            return e.estNs();
        }
        if (o instanceof TcpConnectOutcome.Refused r) {
            return r.atNs();
        }
        return ((TcpConnectOutcome.TimedOut) o).atNs();
    }

    private static VAddr orNone(VAddr a) {
        return a == null ? new VAddr(0, 0) : a;
    }

    private long vt(long instant) {
        return replyAtInstant ? instant : core.vt();
    }

    private static Attempt done(TcpAnswer a, long at) {
        return new Attempt(a, at);
    }
}
