package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import dev.weft.core.Core;
import dev.weft.core.PendingDatagram;
import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FateSource;
import dev.weft.text.Hex;

/**
 * The engine's {@link Core} as both sequencers drive it: each call applies one operation, counts it for
 * {@code --stats} and records it with the core's vt after it — so what is counted and what is recorded cannot
 * drift apart between the single-host and the windowed broker. The caller holds its ordering lock; the order of
 * calls is the recording's linearization.
 */
final class RecordingCore {
    private final Core core;
    private final Recorder recorder;
    private final BrokerStats stats = new BrokerStats();
    private final RecordingTcp tcp;

    RecordingCore(FateSource fault, Recorder recorder) {
        this.core = new Core(fault);
        this.recorder = recorder;
        this.tcp = new RecordingTcp(core, recorder, stats);
    }

    /** The TCP operations, recorded the same way. */
    RecordingTcp tcp() {
        return tcp;
    }

    /** The core, for questions that change nothing (vt, queue lengths, the head of a queue). */
    Core core() {
        return core;
    }

    BrokerStats stats() {
        return stats;
    }

    long vt() {
        return core.vt();
    }

    void connect(long conn) {
        core.connect(conn);
        stats.connects++;
        recorder.record(core.vt(), new Event.Connect(conn));
    }

    void hello(long conn, long node) {
        stats.hellos++;
        recorder.record(core.vt(), new Event.Hello(conn, node));
    }

    void bind(long conn, VAddr addr) {
        core.bind(conn, addr);
        stats.binds++;
        recorder.record(core.vt(), new Event.Bind(conn, addr));
    }

    /** Sends at {@code sendVt}; the virtual delivery latency counted is the delivery time minus sendVt. */
    Core.SendResult send(long conn, VAddr src, VAddr dst, byte[] payload, long sendVt) {
        Core.SendResult r = core.send(src, dst, payload, sendVt);
        stats.sends++;
        recorder.record(core.vt(), new Event.Send(conn, src, dst, r.chanSeq(), sendVt, Hex.encodeLower(payload),
                r.outcome()));
        if (r.outcome() instanceof SendOutcome.Enqueued enq) {
            stats.virtualDelivery.add(enq.delivNs() - sendVt);
            long depth = core.queueLength(enq.toConn());
            stats.queueDepthSum += depth;
            stats.maxQueueDepth = Math.max(stats.maxQueueDepth, depth);
        } else if (r.outcome() == SendOutcome.DROPPED) {
            stats.dropped++;
        } else {
            stats.noReceiver++;
        }
        return r;
    }

    /** Pops conn's next datagram (the caller made sure there is one) and records the delivering recv. */
    PendingDatagram deliver(long conn, boolean blocking) {
        PendingDatagram head = core.peek(conn);
        RecvOutcome out = core.recv(conn);
        stats.recvDelivered++;
        recorder.record(core.vt(), new Event.Recv(conn, blocking, out));
        return head;
    }

    /** Records a recv that found nothing (non-blocking, or windowed: nothing due yet). */
    void empty(long conn) {
        stats.recvEmpty++;
        recorder.record(core.vt(), new Event.Recv(conn, false, RecvOutcome.EMPTY));
    }

    void disconnect(long conn) {
        core.disconnect(conn);
        stats.disconnects++;
        recorder.record(core.vt(), new Event.Disconnect(conn));
    }

    /** Records the deadlock verdict as a {@code violation} record (invariant {@code deadlock}) at the core's vt. */
    void deadlock(DeadlockVerdict v) {
        recorder.record(core.vt(), new Event.Violation(DeadlockVerdict.INVARIANT, v.message()));
    }

    /** Records that the run sends {@code signal} to {@code node} as it ends (--end-when-exited; docs/broker.md). */
    void signal(long node, String signal) {
        recorder.record(core.vt(), new Event.Signal(node, signal, "end_when_exited"));
    }

    /** Records the {@code end} record (a clean finish). */
    void finish() {
        recorder.finish(core.vt(), core.sent(), core.dropped());
    }
}
