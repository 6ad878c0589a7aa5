package dev.weft.broker;

import dev.weft.log.VAddr;

/**
 * The broker's ordering point: every request passes through here, and the order in which they do is the
 * recording's linearization. This single-host implementation takes one lock per operation; a windowed sequencer
 * (which buffers sends until their virtual-time window seals) can replace it behind the same interface.
 * Implementations are thread-safe; connection threads call them concurrently.
 */
public interface OpSequencer {

    /** A connection whose blocking receive is waiting for a datagram. */
    interface Waiter {
        /** Called by the thread whose send satisfied the wait, outside the ordering lock. */
        void deliver(Delivery d);
    }

    /** A datagram popped for a connection, with the raw payload for the wire and the vt for the reply. */
    record Delivery(VAddr src, VAddr dst, byte[] payload, long vt) {
    }

    /** The reply to a send, and a delivery the sending thread must hand to a waiting receiver (or null). */
    record SendReply(long vt, Waiter waiter, Delivery handoff) {
    }

    /** The reply to a receive: a delivery, or empty (with vt), or — for a blocking receive — wait. */
    record RecvReply(Delivery delivery, long vt, boolean waiting) {
        static final RecvReply WAIT = new RecvReply(null, 0, true);
    }

    /** A connection whose TCP request is held until the stream model can answer it (docs/tcp.md). */
    interface TcpWaiter {
        /** Called, outside the ordering lock and after the recording was drained, by the thread that resolved it. */
        void answer(TcpAnswer a);
    }

    /**
     * The outcome of a TCP request: its answer (null: held, the waiter gets it later). A TcpUnwait that took a held
     * TcpWait back answers {@link TcpAnswer.TakenBack}. (takenBack: unused, kept null.)
     */
    record TcpReply(TcpAnswer answer, TcpAnswer takenBack) {
        static final TcpReply HELD = new TcpReply(null, null);
    }

    /**
     * Applies one TCP request of conn. Held requests of other connections that it resolves are answered through
     * their waiters before this returns (their records drained first). The default: a broker without streams.
     */
    default TcpReply tcp(long conn, dev.weft.broker.wire.Request.Tcp request, TcpWaiter waiter) {
        return new TcpReply(new TcpAnswer.Error(95 /* EOPNOTSUPP */, vt()), null);
    }

    /** A newly accepted connection: assigns the next conn id (accept order) and records {@code connect}. */
    long connect();

    long hello(long conn, long nodeId);

    /** A Hello with its host id (windowed runs order by it; the single-host broker ignores it). */
    default long hello(long conn, long nodeId, long hostId) {
        return hello(conn, nodeId);
    }

    long bind(long conn, VAddr addr);

    SendReply send(long conn, VAddr src, VAddr dst, byte[] payload, long localVt);

    /**
     * Pops conn's next datagram. Non-blocking: a delivery or empty. Blocking: a delivery, or WAIT, in which case
     * the send that later enqueues for conn pops it and hands it to {@code waiter}.
     */
    RecvReply recv(long conn, boolean blocking, long localVt, Waiter waiter);

    /**
     * As {@link #recv(long, boolean, long, Waiter)}; {@code waitsForever}: the shim says the whole node waits in this
     * blocking receive with no deadline (the deadlock verdict's input, docs/broker.md).
     */
    default RecvReply recv(long conn, boolean blocking, boolean waitsForever, long localVt, Waiter waiter) {
        return recv(conn, blocking, localVt, waiter);
    }

    /**
     * A leased receive (wire tag 28, windowed runs only): held until its final outcome, a delivery or (non-blocking
     * and timed modes) empty with a lease, the virtual time before which no datagram can reach conn. Null: this
     * sequencer does not serve leases (a protocol error for the connection).
     */
    default LeaseReply lease(long conn, int mode, long localVt, Waiter waiter) {
        return null;
    }

    /**
     * A leased receive's outcome: a delivery, or empty at vt with {@code until} (0: no lease, ask again), or (a
     * blocking lease) wait: the delivery comes later through the waiter.
     */
    record LeaseReply(Delivery delivery, long vt, long until, boolean waiting) {
        static final LeaseReply WAIT = new LeaseReply(null, 0, 0, true);

        LeaseReply(Delivery delivery, long vt, long until) {
            this(delivery, vt, until, false);
        }
    }

    long frontier(long conn, long localVt);

    /** The connection said goodbye (nothing is recorded). */
    void goodbye(long conn);

    /** The connection ended (EOF, error, shutdown): unbinds it and records {@code disconnect} once. */
    void disconnect(long conn);

    /** Disconnects every connection still open (in conn id order) and records {@code end}. */
    void finish();

    /**
     * The run ends because the nodes it waited for have exited (--end-when-exited): records a {@code signal}
     * SIGTERM for each other node that still has a connection open (ascending ids), then finishes as
     * {@link #finish()}. Returns those node ids.
     */
    default java.util.List<Long> finishWithSignals() {
        finish();
        return java.util.List.of();
    }

    /**
     * As {@link #finishWithSignals()}, leaving out the nodes whose processes the launcher has seen exit: a node
     * that exited may not have been noticed by the broker yet (its connection's end is read on another thread),
     * and a process that is gone is not sent a signal. The windowed sequencer decides from its own state, a
     * function of the seed, so it keeps {@link #finishWithSignals()}.
     */
    default java.util.List<Long> finishWithSignals(java.util.Set<Long> exitedNodes) {
        return finishWithSignals();
    }

    /** The core's current high-water mark. */
    long vt();

    /** Writes out the records staged so far; called outside the ordering point, before sending a reply. */
    void drainRecording();

    /** Adds one request's real service time (ns) to the statistics. */
    void addServiceTime(long ns);

    /** Counts a connection ended by a protocol error. */
    void countProtocolError();

    /** System.nanoTime() of the last request served (for watchdogs; real time never reaches the log). */
    long lastOpNanos();

    /** The statistics' report lines ({@code --stats}). */
    java.util.List<String> statsLines();
}
