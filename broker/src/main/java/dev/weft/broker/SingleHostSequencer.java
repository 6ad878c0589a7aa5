package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import dev.weft.core.Core;
import dev.weft.core.PendingDatagram;
import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.text.Hex;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.function.LongConsumer;

/**
 * The single-host broker of core-and-replay.md §2: every operation takes one lock, is applied to the engine's
 * {@link Core}, and is recorded at that point with the core's vt after it. Sends always use send_vt 0; a
 * request's own clock is only observed (for scenario timing), never fed to the core.
 */
public final class SingleHostSequencer implements OpSequencer {
    private final Object lock = new Object();
    private final Core core;
    private final Recorder recorder;
    private final BrokerStats stats = new BrokerStats();
    /** Connections that have been connected and not yet disconnected. */
    private final TreeSet<Long> open = new TreeSet<>();
    /** Connections whose blocking receive waits for a datagram. */
    private final Map<Long, Waiter> parked = new HashMap<>();
    private long nextConn;
    private boolean finished;
    /** Datagrams between these endpoints never reach the core (a scenario partition; null: none). */
    private BiPredicate<VAddr, VAddr> cut;
    /** Sees every request's local clock, under the lock (scenario timing; null: nobody). */
    private LongConsumer clockListener;
    private volatile long lastOpNanos = System.nanoTime();

    public SingleHostSequencer(FaultModel fault, Recorder recorder) {
        this.core = new Core(fault);
        this.recorder = recorder;
    }

    /** Sets (or clears with null) the scenario partition; takes effect at this point of the linearization. */
    public void setCut(BiPredicate<VAddr, VAddr> cut) {
        synchronized (lock) {
            this.cut = cut;
        }
    }

    public void setClockListener(LongConsumer listener) {
        synchronized (lock) {
            this.clockListener = listener;
        }
    }

    /** Runs action at this point of the linearization (under the ordering lock), e.g. a timed scenario event. */
    public void runOrdered(Runnable action) {
        synchronized (lock) {
            action.run();
        }
    }

    /** System.nanoTime() of the last request served (for watchdogs; real time never reaches the log). */
    public long lastOpNanos() {
        return lastOpNanos;
    }

    /** A copy of the statistics' report lines. */
    public java.util.List<String> statsLines() {
        synchronized (lock) {
            return stats.lines();
        }
    }

    /** Adds one request's real service time (ns). */
    public void addServiceTime(long ns) {
        synchronized (lock) {
            stats.service.add(ns);
        }
    }

    /** Counts a connection ended by a protocol error. */
    public void countProtocolError() {
        synchronized (lock) {
            stats.protocolErrors++;
        }
    }

    public Recorder recorder() {
        return recorder;
    }

    @Override
    public long connect() {
        synchronized (lock) {
            long id = nextConn++;
            core.connect(id);
            open.add(id);
            stats.connects++;
            recorder.record(core.vt(), new Event.Connect(id));
            touch();
            return id;
        }
    }

    @Override
    public long hello(long conn, long nodeId) {
        synchronized (lock) {
            stats.hellos++;
            recorder.record(core.vt(), new Event.Hello(conn, nodeId));
            touch();
            return core.vt();
        }
    }

    @Override
    public long bind(long conn, VAddr addr) {
        synchronized (lock) {
            core.bind(conn, addr);
            stats.binds++;
            recorder.record(core.vt(), new Event.Bind(conn, addr));
            touch();
            return core.vt();
        }
    }

    @Override
    public SendReply send(long conn, VAddr src, VAddr dst, byte[] payload, long localVt) {
        synchronized (lock) {
            observe(localVt);
            touch();
            if (cut != null && cut.test(src, dst)) {
                stats.partitionCuts++;
                return new SendReply(core.vt(), null, null);
            }
            Core.SendResult r = core.send(src, dst, payload, 0);
            stats.sends++;
            recorder.record(core.vt(), new Event.Send(conn, src, dst, r.chanSeq(), 0, Hex.encodeLower(payload),
                    r.outcome()));
            if (r.outcome() instanceof SendOutcome.Enqueued enq) {
                stats.virtualDelivery.add(enq.delivNs());
                long depth = core.queueLength(enq.toConn());
                stats.queueDepthSum += depth;
                stats.maxQueueDepth = Math.max(stats.maxQueueDepth, depth);
                Waiter w = parked.remove(enq.toConn());
                if (w != null) {
                    return new SendReply(core.vt(), w, pop(enq.toConn(), true));
                }
            } else if (r.outcome() == SendOutcome.DROPPED) {
                stats.dropped++;
            } else {
                stats.noReceiver++;
            }
            return new SendReply(core.vt(), null, null);
        }
    }

    @Override
    public RecvReply recv(long conn, boolean blocking, long localVt, Waiter waiter) {
        synchronized (lock) {
            observe(localVt);
            touch();
            if (core.queueLength(conn) > 0) {
                return new RecvReply(pop(conn, blocking), core.vt(), false);
            }
            if (blocking) {
                stats.recvBlockedWaits++;
                parked.put(conn, waiter);
                return RecvReply.WAIT;
            }
            stats.recvEmpty++;
            recorder.record(core.vt(), new Event.Recv(conn, false, RecvOutcome.EMPTY));
            return new RecvReply(null, core.vt(), false);
        }
    }

    /** Pops conn's minimum and records the recv; the caller made sure the queue is not empty. */
    private Delivery pop(long conn, boolean blocking) {
        PendingDatagram head = core.peek(conn);
        RecvOutcome out = core.recv(conn);
        stats.recvDelivered++;
        recorder.record(core.vt(), new Event.Recv(conn, blocking, out));
        return new Delivery(head.src(), head.dst(), head.payload(), core.vt());
    }

    @Override
    public long frontier(long conn, long localVt) {
        synchronized (lock) {
            observe(localVt);
            touch();
            return core.vt();
        }
    }

    @Override
    public void goodbye(long conn) {
        touch();
    }

    @Override
    public void disconnect(long conn) {
        synchronized (lock) {
            disconnectLocked(conn);
        }
    }

    private void disconnectLocked(long conn) {
        if (!open.remove(conn)) {
            return;
        }
        parked.remove(conn);
        core.disconnect(conn);
        stats.disconnects++;
        recorder.record(core.vt(), new Event.Disconnect(conn));
        touch();
    }

    @Override
    public void finish() {
        synchronized (lock) {
            if (finished) {
                return;
            }
            finished = true;
            for (Long c : new TreeSet<>(open)) {
                disconnectLocked(c);
            }
            recorder.finish(core.vt(), core.sent(), core.dropped());
        }
    }

    /** True once {@link #finish()} ran; later operations are still served but the log is complete. */
    public boolean finished() {
        synchronized (lock) {
            return finished;
        }
    }

    @Override
    public long vt() {
        synchronized (lock) {
            return core.vt();
        }
    }

    private void observe(long localVt) {
        if (clockListener != null) {
            clockListener.accept(localVt);
        }
    }

    private void touch() {
        lastOpNanos = System.nanoTime();
    }
}
