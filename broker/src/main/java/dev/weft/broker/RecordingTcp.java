package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.log.VAddr;
import dev.weft.tcp.TcpException;
import dev.weft.tcp.TcpNetwork;
import java.util.List;

/**
 * The core's stream model ({@link TcpNetwork}) as both sequencers drive it: each call applies one TCP operation,
 * counts it and records it with the core's vt after it (docs/tcp.md, docs/weft-log-format.md). The first TCP record
 * of a log is preceded by the {@code ext} record that announces TCP, so a UDP-only recording stays byte-for-byte
 * what it was. A refused operation ({@link TcpException}) changes nothing and is not recorded. The caller holds
 * its ordering lock.
 */
final class RecordingTcp {
    private final Core core;
    private final TcpNetwork net;
    private final Recorder recorder;
    private final BrokerStats stats;
    private boolean announced;
    /** Scenario partitions before the first TCP operation: applied and recorded with it (a UDP-only log has none). */
    private final List<Event.TcpPartition> deferredPartitions = new java.util.ArrayList<>();

    RecordingTcp(Core core, Recorder recorder, BrokerStats stats) {
        this.core = core;
        this.net = core.tcp();
        this.recorder = recorder;
        this.stats = stats;
    }

    /** The model, for questions that change nothing (readiness, status, sid of a conn). */
    TcpNetwork net() {
        return net;
    }

    private void record(Event e) {
        stats.tcpOps++;
        recorder.record(core.vt(), e);
    }

    /**
     * Before the first TCP operation: the {@code ext} record, then the scenario partitions so far. Called before the
     * operation is applied, so a UDP-only run records none of it.
     */
    private void announce() {
        if (announced) {
            return;
        }
        announced = true;
        recorder.record(core.vt(), new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION));
        for (Event.TcpPartition p : deferredPartitions) {
            try {
                net.partitionAt(p.atNs(), p.spec());
            } catch (dev.weft.net.NetSpecException e) {
                throw new IllegalStateException("a partition checked when it was scheduled", e);
            }
            record(p);
        }
        deferredPartitions.clear();
    }

    VAddr bind(long conn, VAddr addr) throws TcpException {
        announce();
        VAddr at = net.bind(conn, addr);
        record(new Event.TcpBind(conn, at));
        return at;
    }

    void listen(long conn, long backlog) throws TcpException {
        announce();
        net.listen(conn, backlog);
        record(new Event.TcpListen(conn, backlog));
    }

    /** A connect at sendVt; a non-blocking one is recorded {@code pending} (its end later by {@link #established}). */
    TcpNetwork.ConnectResult connect(long conn, long localIp, VAddr dst, long sendVt, boolean nonblocking)
            throws TcpException {
        announce();
        TcpNetwork.ConnectResult r = net.connect(conn, localIp, dst, sendVt);
        stats.tcpConnects++;
        record(new Event.TcpConnect(conn, r.sid(), r.src(), dst, sendVt,
                nonblocking ? TcpConnectOutcome.PENDING : r.outcome()));
        return r;
    }

    /** Records how conn's non-blocking connect ended (when the node first learns it). */
    void established(long conn) throws TcpException {
        record(new Event.TcpEstablished(conn, net.sidOf(conn), net.connectOutcome(conn)));
    }

    TcpAcceptOutcome accept(long conn, boolean blocking, long horizon) throws TcpException {
        announce();
        TcpAcceptOutcome out = net.accept(conn, horizon);
        record(new Event.TcpAccept(conn, blocking, out));
        return out;
    }

    void adopt(long conn, long sid) throws TcpException {
        announce();
        net.adopt(conn, sid);
        record(new Event.TcpAdopt(conn, sid));
    }

    /**
     * A write at sendVt: the record's payload is the accepted bytes. A {@code full} outcome is recorded only when
     * recordFull (a non-blocking write); the model is unchanged by it either way.
     */
    TcpNetwork.WriteResult write(long conn, byte[] bytes, long sendVt, boolean recordFull) throws TcpException {
        announce();
        TcpNetwork.WriteResult r = net.write(conn, bytes, sendVt);
        byte[] accepted = r.accepted() == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, r.accepted());
        if (r.outcome() == TcpSendOutcome.FULL && !recordFull) {
            return r; // a blocking writer waits: only the write that goes through is recorded
        }
        stats.tcpBytesWritten += r.accepted();
        if (r.outcome() instanceof TcpSendOutcome.Segment || r.outcome() == TcpSendOutcome.STALLED) {
            stats.tcpSegments++;
        }
        record(new Event.TcpSend(conn, r.sid(), r.offset(), sendVt, dev.weft.text.Hex.encodeLower(accepted),
                r.outcome()));
        return r;
    }

    /** A read at horizon; an {@code empty} outcome is recorded only for a non-blocking read (a blocking one waits). */
    TcpNetwork.ReadResult read(long conn, long max, boolean peek, boolean blocking, long horizon)
            throws TcpException {
        announce();
        TcpNetwork.ReadResult r = net.read(conn, max, peek, horizon);
        if (r.outcome() == TcpRecvOutcome.EMPTY && blocking) {
            return r;
        }
        if (r.outcome() instanceof TcpRecvOutcome.Data d && !peek) {
            stats.tcpBytesRead += d.payload().length() / 2;
        }
        record(new Event.TcpRecv(conn, r.sid(), max, peek, blocking, r.outcome()));
        return r;
    }

    void shutdown(long conn, long how) throws TcpException {
        announce();
        boolean rd = how == 0 || how == 2;
        boolean wr = how == 1 || how == 2;
        long sid = net.shutdown(conn, rd, wr);
        record(new Event.TcpShutdown(conn, sid, how == 0 ? Event.TcpShutdown.RD
                : how == 1 ? Event.TcpShutdown.WR : Event.TcpShutdown.RDWR));
    }

    /** {@code SO_LINGER {1,0}}: conn's coming close resets its peer. Not a record of its own: the close says reset. */
    void abort(long conn) {
        try {
            net.abort(conn);
        } catch (TcpException e) {
            // an abort on a socket that is no stream end changes nothing (its close is no reset either)
        }
    }

    /** The last close of conn's socket: recorded when conn was a stream end not yet closed. */
    void close(long conn) {
        TcpNetwork.CloseResult r = net.close(conn);
        if (r != null) {
            record(new Event.TcpClose(conn, r.sid(), r.reset()));
        }
    }

    /** A scenario crash of node at atNs: every stream with an end on it resets at its peers. */
    void crash(long node, long atNs) {
        if (!net.inUse()) {
            return;
        }
        List<Long> sids = net.crashNode(node, atNs);
        for (long sid : sids) {
            record(new Event.TcpReset(sid, Event.TcpReset.CRASH, atNs));
        }
    }

    /** A scenario partition (spec in the net spec's syntax; empty: healed) from atNs on, for the streams. */
    void partition(long atNs, String spec) throws dev.weft.net.NetSpecException {
        if (!announced) {
            dev.weft.net.NetSpec.parse("partition=" + (spec.isBlank() ? "0" : spec)); // refused now, not later
            deferredPartitions.add(new Event.TcpPartition(atNs, spec));
            return;
        }
        net.partitionAt(atNs, spec);
        record(new Event.TcpPartition(atNs, spec));
    }

    /** Resets the streams whose stall timeout has passed by horizon (reason {@code stall}); true if any. */
    boolean applyStallResets(long horizon) {
        if (!net.inUse()) {
            return false;
        }
        List<TcpNetwork.StallReset> due = net.stallResetsDue(horizon);
        for (TcpNetwork.StallReset s : due) {
            try {
                net.reset(s.sid(), s.atNs());
            } catch (TcpException e) {
                throw new IllegalStateException("the model named a stream it does not know", e);
            }
            record(new Event.TcpReset(s.sid(), Event.TcpReset.STALL, s.atNs()));
        }
        return !due.isEmpty();
    }
}
