package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import dev.weft.core.Core;
import dev.weft.core.PendingDatagram;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FateSource;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.LongConsumer;

/**
 * The single-host broker of core-and-replay.md §2: every operation takes one lock, is applied to the engine's
 * {@link Core}, and is recorded at that point with the core's vt after it. Sends always use send_vt 0; a
 * request's own clock is only observed (for scenario timing), never fed to the core.
 */
public final class SingleHostSequencer extends LockedRecordingSequencer {
    /** How long ends of connections are collected before their disconnects are recorded (see disconnect). */
    static final long CLOSE_WINDOW_NANOS = 10_000_000L;

    /** Connections that have been connected and not yet disconnected. */
    private final TreeSet<Long> open = new TreeSet<>();
    /** Connections whose blocking receive waits for a datagram. */
    private final Map<Long, Waiter> parked = new HashMap<>();
    /** Connections that ended and whose disconnect is recorded at the end of the current close window. */
    private final TreeSet<Long> closing = new TreeSet<>();
    private long firstCloseNanos;
    private long lastCloseNanos;
    private final ScheduledThreadPoolExecutor closer = newCloser();
    private long nextConn;
    /** Datagrams between these endpoints never reach the core (a scenario partition; null: none). */
    private BiPredicate<VAddr, VAddr> cut;
    /** Sees every request's local clock, under the lock (scenario timing; null: nobody). */
    private LongConsumer clockListener;

    public SingleHostSequencer(FateSource fault, Recorder recorder) {
        super(fault, recorder);
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

    /** How many connections wait in a blocking receive right now. */
    public int parkedReceivers() {
        synchronized (lock) {
            return parked.size();
        }
    }

    @Override
    public java.util.List<String> statsLines() {
        synchronized (lock) {
            return stats.lines();
        }
    }

    public Recorder recorder() {
        return recorder;
    }

    @Override
    public long connect() {
        long id;
        synchronized (lock) {
            id = nextConn++;
            ops.connect(id);
            open.add(id);
            touch();
        }
        recorder.drain();
        return id;
    }

    @Override
    public long hello(long conn, long nodeId) {
        return applyAndReturnVt(() -> ops.hello(conn, nodeId));
    }

    @Override
    public long bind(long conn, VAddr addr) {
        return applyAndReturnVt(() -> ops.bind(conn, addr));
    }

    /** Applies an operation that answers only with the core's vt after it (hello, bind). */
    private long applyAndReturnVt(Runnable op) {
        synchronized (lock) {
            op.run();
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
            Core.SendResult r = ops.send(conn, src, dst, payload, 0);
            if (r.outcome() instanceof SendOutcome.Enqueued enq) {
                Waiter w = parked.remove(enq.toConn());
                if (w != null) {
                    return new SendReply(core.vt(), w, pop(enq.toConn(), true));
                }
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
            ops.empty(conn);
            return new RecvReply(null, core.vt(), false);
        }
    }

    /** Pops conn's minimum and records the recv; the caller made sure the queue is not empty. */
    private Delivery pop(long conn, boolean blocking) {
        PendingDatagram head = ops.deliver(conn, blocking);
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

    /**
     * Records the disconnect a short moment later, together with every other connection that ended meanwhile, in
     * conn id order. A process that exits closes all its sockets at once, and the connection threads see those
     * ends in a racing order; collecting them until none ended for {@link #CLOSE_WINDOW_NANOS} makes the recorded
     * order a function of the run (so one seed of a single-process program gives one digest) instead of thread
     * timing — as long as the machine delivers those ends within that window of each other.
     */
    @Override
    public void disconnect(long conn) {
        synchronized (lock) {
            if (finished || !open.contains(conn)) {
                return;
            }
            closing.add(conn);
            lastCloseNanos = System.nanoTime();
            if (closing.size() > 1) {
                return; // the first of the batch already scheduled the flush
            }
            firstCloseNanos = lastCloseNanos;
        }
        scheduleFlush(CLOSE_WINDOW_NANOS);
    }

    private static ScheduledThreadPoolExecutor newCloser() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "weft-broker-closer");
            t.setDaemon(true);
            return t;
        });
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // finish() recorded those disconnects itself
        return e;
    }

    private void scheduleFlush(long delayNanos) {
        try {
            closer.schedule(this::flushClosing, delayNanos, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // finish() ran meanwhile and disconnected every open connection itself
        }
    }

    /** Records the batch once no connection ended for a whole window (at most 20 windows after the first). */
    private void flushClosing() {
        synchronized (lock) {
            long now = System.nanoTime();
            long quietFor = now - lastCloseNanos;
            if (quietFor < CLOSE_WINDOW_NANOS && now - firstCloseNanos < 20 * CLOSE_WINDOW_NANOS) {
                scheduleFlush(CLOSE_WINDOW_NANOS - quietFor);
                return;
            }
            for (Long c : closing) {
                disconnectLocked(c);
            }
            closing.clear();
        }
        recorder.drain();
    }

    private void disconnectLocked(long conn) {
        // (the caller drains the recording after releasing the lock)
        if (!open.remove(conn)) {
            return;
        }
        parked.remove(conn);
        ops.disconnect(conn);
        touch();
    }

    @Override
    protected void completeRecordingLocked() {
        // connections that already ended first (their batch, in id order), then everything still open
        for (Long c : closing) {
            disconnectLocked(c);
        }
        closing.clear();
        for (Long c : new TreeSet<>(open)) {
            disconnectLocked(c);
        }
        // shutdown, not shutdownNow: an interrupt would reach a flush that is about to drain the recording
        closer.shutdown();
        ops.finish();
    }

    /** True once {@link #finish()} ran; later operations are still served but the log is complete. */
    public boolean finished() {
        synchronized (lock) {
            return finished;
        }
    }

    private void observe(long localVt) {
        if (clockListener != null) {
            clockListener.accept(localVt);
        }
    }
}
