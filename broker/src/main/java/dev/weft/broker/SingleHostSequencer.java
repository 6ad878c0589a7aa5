package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import dev.weft.broker.wire.Request;
import dev.weft.core.Core;
import dev.weft.core.PendingDatagram;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FateSource;
import dev.weft.net.FaultModel;
import dev.weft.tcp.TcpNetwork;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
    /** What the deadlock verdict needs: each conn's node, bound address, and whether its node waits there forever. */
    private final DeadlockWatch deadlockWatch = new DeadlockWatch();
    /** Told (outside the lock) each time a node starts waiting forever: the moment a deadlock may be complete. */
    private volatile Runnable foreverWaitListener = () -> { };

    /** A TCP request that waits (blocking read, accept, write against a full buffer, TcpWait). */
    private record HeldTcp(Request.Tcp request, TcpWaiter waiter) {
    }

    /** A held request answered by another connection's operation; written outside the lock. */
    private record Handoff(TcpWaiter waiter, TcpAnswer answer) {
    }

    private final TcpAnswers tcpAnswers;
    /** Node id of each connection, from its Hello (a TCP socket's address and ephemeral ports derive from it). */
    private final Map<Long, Long> nodeOf = new HashMap<>();
    /** Held TCP requests by conn id: retried in conn id order whenever the stream model changed. */
    private final TreeMap<Long, HeldTcp> heldTcp = new TreeMap<>();
    /** Answers to held requests, decided under the lock and not yet written. */
    private final DeferredAnswers<Handoff> handoffs =
            new DeferredAnswers<>(lock, recorder, h -> h.waiter().answer(h.answer()));
    /**
     * The largest local clock any request reported: the single-host run's "now" for TcpWait deadlines and stall
     * timeouts (arrivals are all visible at once, as datagrams are: horizon {@link TcpNetwork#ALL}).
     */
    private long clock;

    public SingleHostSequencer(FateSource fault, Recorder recorder) {
        super(fault, recorder);
        this.tcpAnswers = new TcpAnswers(core, ops.tcp(), false);
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
        flushHandoffs();
    }

    /**
     * A scenario partition (spec in the net spec's syntax; empty: healed) reaches the TCP streams from atNs on, at
     * this point of the linearization. Datagrams are cut by {@link #setCut}; streams stall instead (docs/tcp.md).
     */
    public void partitionStreams(long atNs, String spec) throws dev.weft.net.NetSpecException {
        synchronized (lock) {
            ops.tcp().partition(atNs, spec);
            retryHeld();
        }
        flushHandoffs();
    }

    /**
     * A scenario crash of node at atNs: its streams reset at their peers and its TCP sockets (listeners included)
     * end here, before its process group is killed, so a connect right after the crash is refused whatever the
     * real time its sockets take to close. (Its UDP sockets end when their connections do, as before.)
     */
    public void crashStreams(long node, long atNs) {
        synchronized (lock) {
            ops.tcp().crash(node, atNs);
            TcpNetwork net = ops.tcp().net();
            for (Long conn : new ArrayList<>(open)) {
                boolean tcpSocket = net.sidOf(conn) >= 0 || net.status(conn, TcpNetwork.ALL).state() != TcpNetwork.CLOSED;
                if (Long.valueOf(node).equals(nodeOf.get(conn)) && tcpSocket) {
                    closing.remove(conn);
                    disconnectLocked(conn);
                }
            }
            retryHeld();
        }
        recorder.drain();
        flushHandoffs();
    }

    /** How many connections wait in a blocking receive or a held TCP request right now. */
    public int parkedReceivers() {
        synchronized (lock) {
            return parked.size() + heldTcp.size();
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
        return applyAndReturnVt(() -> {
            nodeOf.put(conn, nodeId);
            ops.hello(conn, nodeId);
            deadlockWatch.hello(conn, nodeId);
        });
    }

    @Override
    public long bind(long conn, VAddr addr) {
        return applyAndReturnVt(() -> {
            ops.bind(conn, addr);
            deadlockWatch.bind(conn, addr);
        });
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
        try {
            return sendLocked(conn, src, dst, payload, localVt);
        } finally {
            flushHandoffs();
        }
    }

    private SendReply sendLocked(long conn, VAddr src, VAddr dst, byte[] payload, long localVt) {
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
                    deadlockWatch.woken(enq.toConn());
                    return new SendReply(core.vt(), w, pop(enq.toConn(), true));
                }
            }
            return new SendReply(core.vt(), null, null);
        }
    }

    @Override
    public RecvReply recv(long conn, boolean blocking, long localVt, Waiter waiter) {
        return recv(conn, blocking, false, localVt, waiter);
    }

    @Override
    public RecvReply recv(long conn, boolean blocking, boolean waitsForever, long localVt, Waiter waiter) {
        RecvReply reply;
        try {
            reply = recvLocked(conn, blocking, waitsForever, localVt, waiter);
        } finally {
            flushHandoffs();
        }
        if (reply.waiting() && waitsForever) {
            foreverWaitListener.run();
        }
        return reply;
    }

    private RecvReply recvLocked(long conn, boolean blocking, boolean waitsForever, long localVt, Waiter waiter) {
        synchronized (lock) {
            observe(localVt);
            touch();
            if (core.queueLength(conn) > 0) {
                return new RecvReply(pop(conn, blocking), core.vt(), false);
            }
            if (blocking) {
                stats.recvBlockedWaits++;
                parked.put(conn, waiter);
                deadlockWatch.parked(conn, waitsForever);
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
        long vt;
        synchronized (lock) {
            observe(localVt);
            touch();
            retryHeld(); // the clock may have passed a held TcpWait's deadline
            vt = core.vt();
        }
        flushHandoffs();
        return vt;
    }

    @Override
    public TcpReply tcp(long conn, Request.Tcp r, TcpWaiter waiter) {
        TcpReply reply;
        boolean forever = false;
        synchronized (lock) {
            touch();
            observe(localVtOf(r));
            if (r instanceof Request.TcpAbort) {
                ops.tcp().abort(conn);
                reply = TcpReply.HELD; // no reply at all
            } else if (r instanceof Request.TcpClose) {
                // windowed only (the shim sends none in plain runs): here the EOF that follows is the close
                reply = new TcpReply(new TcpAnswer.Ack(core.vt()), null);
            } else if (r instanceof Request.TcpUnwait) {
                TcpAnswer back = null;
                HeldTcp h = heldTcp.get(conn);
                if (h != null && h.request() instanceof Request.TcpWait w) {
                    heldTcp.remove(conn);
                    deadlockWatch.woken(conn);
                    back = tcpAnswers.readyNow(conn, w.events(), TcpNetwork.ALL, clock);
                }
                TcpAnswer ack = new TcpAnswer.UnwaitAck(core.vt());
                reply = new TcpReply(back == null ? ack : new TcpAnswer.TakenBack(back, ack), null);
            } else {
                TcpAnswers.Attempt a = tcpAnswers.attempt(conn, ipOf(conn), r, TcpNetwork.ALL, clock);
                if (a.waits()) {
                    stats.tcpHeldWaits++;
                    heldTcp.put(conn, new HeldTcp(r, waiter));
                    reply = TcpReply.HELD;
                    if (r instanceof Request.TcpWait w && w.forever() && w.deadlineVt() == 0) {
                        // the shim says its whole node waits here with no deadline: the deadlock verdict's input
                        deadlockWatch.parkedTcp(conn, tcpWaitText(conn, w.events()));
                        forever = true;
                    }
                } else {
                    reply = new TcpReply(a.answer(), null);
                }
                retryHeld();
            }
        }
        flushHandoffs();
        if (forever) {
            foreverWaitListener.run();
        }
        return reply;
    }

    /** What a TCP wait waits in, for the deadlock verdict's line: {@code tcp_read (sid 2)}, {@code tcp_accept (…)}. */
    private String tcpWaitText(long conn, long events) {
        String at = ops.tcp().net().endpointText(conn);
        String what = at.startsWith("listener") ? "tcp_accept" : (events & TcpNetwork.POLLIN) != 0 ? "tcp_read"
                : at.startsWith("sid") ? "tcp_write" : "tcp_connect";
        return what + " (" + at + ")";
    }

    /** Node n's address, 127.0.0.(n+1) (a connection before Hello counts as node 0). */
    private long ipOf(long conn) {
        return 0x7F000001L + nodeOf.getOrDefault(conn, 0L);
    }

    /** The local clock a TCP request carries (0 for those that carry none). */
    static long localVtOf(Request.Tcp r) {
        if (r instanceof Request.TcpConnect c) {
            return c.localVt();
        } else if (r instanceof Request.TcpAccept a) {
            return a.localVt();
        } else if (r instanceof Request.TcpWrite w) {
            return w.localVt();
        } else if (r instanceof Request.TcpRead rd) {
            return rd.localVt();
        } else if (r instanceof Request.TcpWait w) {
            return w.localVt();
        } else if (r instanceof Request.TcpClose c) {
            return c.localVt();
        }
        return 0;
    }

    /**
     * Answers every held TCP request the stream model can now answer, in conn id order, until none changes (a read
     * that makes room can release a writer): their answers are written by {@link #flushHandoffs} after the lock.
     */
    private void retryHeld() {
        if (heldTcp.isEmpty() && !ops.tcp().net().inUse()) {
            return;
        }
        ops.tcp().applyStallResets(clock);
        boolean progress = true;
        while (progress && !heldTcp.isEmpty()) {
            progress = false;
            for (Long conn : new ArrayList<>(heldTcp.keySet())) {
                HeldTcp h = heldTcp.get(conn);
                TcpAnswers.Attempt a = tcpAnswers.attempt(conn, ipOf(conn), h.request(), TcpNetwork.ALL, clock);
                if (!a.waits()) {
                    heldTcp.remove(conn);
                    deadlockWatch.woken(conn);
                    handoffs.add(new Handoff(h.waiter(), a.answer()));
                    progress = true;
                }
            }
        }
    }

    /** Writes the answers of held requests decided so far, after their records went out (outside the lock). */
    private void flushHandoffs() {
        handoffs.flush();
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
            retryHeld(); // a close is a FIN or reset at the peer
        }
        recorder.drain();
        flushHandoffs();
    }

    private void disconnectLocked(long conn) {
        // (the caller drains the recording after releasing the lock)
        if (!open.remove(conn)) {
            return;
        }
        parked.remove(conn);
        heldTcp.remove(conn);
        tcpAnswers.forget(conn);
        ops.tcp().close(conn); // the last close of a TCP socket: FIN, or reset (recorded before the disconnect)
        deadlockWatch.disconnected(conn);
        ops.disconnect(conn);
        nodeOf.remove(conn);
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

    // ---- the deadlock verdict (docs/broker.md) ----

    /** Called (on a connection thread, no lock held) whenever a node starts waiting with no deadline. */
    public void onForeverWait(Runnable listener) {
        this.foreverWaitListener = listener;
    }

    /**
     * The verdict if every node in {@code liveNodes} (the nodes whose process runs, which the launcher knows and the
     * broker does not) waits with no deadline, else null. A node waits forever when its shim said so for a blocking
     * receive that is still parked (nothing was queued for it, or the receive would have taken it). Once true this
     * stays true — nothing can wake any of them — so the check may come at any moment after. A verdict is recorded
     * as a {@code violation} record (invariant {@code deadlock}) at once; call {@link #finish()} next.
     */
    public DeadlockVerdict deadlockOf(java.util.Collection<Long> liveNodes) {
        synchronized (lock) {
            if (finished || liveNodes.isEmpty()) {
                return null;
            }
            // an ended connection (its disconnect waits for the close window) waits for nothing: a node crashed and
            // started again must not be judged by its dead incarnation's receive
            java.util.Set<Long> waiting = new java.util.HashSet<>(parked.keySet());
            waiting.addAll(heldTcp.keySet()); // a held TcpWait the shim marked "forever" (DeadlockWatch.parkedTcp)
            waiting.removeAll(closing);
            java.util.SortedMap<Long, String> waits = deadlockWatch.waitsOf(liveNodes, waiting);
            if (waits == null) {
                return null;
            }
            DeadlockVerdict v = new DeadlockVerdict(waits, core.vt());
            ops.deadlock(v);
            return v;
        }
    }

    @Override
    public java.util.List<Long> finishWithSignals() {
        return finishWithSignals(java.util.Set.of());
    }

    @Override
    public java.util.List<Long> finishWithSignals(java.util.Set<Long> exitedNodes) {
        java.util.List<Long> signalled;
        synchronized (lock) {
            if (finished) {
                return java.util.List.of();
            }
            java.util.TreeSet<Long> nodes = new java.util.TreeSet<>(Long::compareUnsigned);
            for (Long c : open) {
                if (!closing.contains(c)) {
                    deadlockWatch.nodeOfConn(c).ifPresent(nodes::add);
                }
            }
            nodes.removeAll(exitedNodes);
            for (long n : nodes) {
                ops.signal(n, "SIGTERM");
            }
            signalled = java.util.List.copyOf(nodes);
        }
        finish();
        return signalled;
    }

    /** True once {@link #finish()} ran; later operations are still served but the log is complete. */
    public boolean finished() {
        synchronized (lock) {
            return finished;
        }
    }

    private void observe(long localVt) {
        if (Long.compareUnsigned(localVt, clock) > 0) {
            clock = localVt;
        }
        if (clockListener != null) {
            clockListener.accept(localVt);
        }
    }
}
