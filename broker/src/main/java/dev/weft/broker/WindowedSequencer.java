package dev.weft.broker;

import dev.weft.broker.record.Recorder;
import dev.weft.broker.wire.Request;
import dev.weft.tcp.TcpNetwork;
import dev.weft.core.Core;
import dev.weft.core.PendingDatagram;
import dev.weft.log.VAddr;
import dev.weft.net.FateSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The windowed broker (core-and-replay.md §3, header {@code window_ns} = W > 0), made deterministic: the
 * recording is a function of the seed and the programs, not of which process reached the broker first.
 *
 * <p>Every recorded operation of a node gets a key {@code (vt, host, node, seq)}: vt is the node's virtual clock
 * at the operation (a send's {@code local_vt}; for a receive the time it returns: the delivery time, or its bound
 * for a final empty), seq the node's program order. Operations are applied to the core and recorded in
 * ascending key order, each only once no node can still produce an operation with a smaller key (see
 * {@link #boundOf}); so the sends of a window are fed in the spec's {@code (local_vt, host_id, node_id, seq)}
 * order with {@code send_vt = local_vt}, and connects, hellos, binds, receives and disconnects sit at
 * deterministic places between them. Log conn ids are assigned when a hello is recorded (key order), never in
 * accept order. A window is <em>sealed</em> once every node's bound has passed its end.
 *
 * <p>Because a bound is a promise every node keeps (a running node never sends before its clock; a node waiting
 * in a receive never acts before its next delivery or its timeout), no legal program can send into a window
 * that was already applied: a "late" operation here is a real protocol violation and discards the run.
 */
public final class WindowedSequencer extends LockedRecordingSequencer {
    private static final long INF = -1L; // unsigned max

    /** Why the run must be discarded; called once, outside no lock in particular (the launcher stops the run). */
    private final Consumer<String> onDiscard;
    private final long windowNs;
    private final long minDelay;
    private final long windowOpsLimit;

    /** Nodes by (host, node); the expected ones exist from the start (they may not have connected yet). */
    private final TreeMap<NodeId, NodeState> nodes = new TreeMap<>();
    private final Map<Long, ConnState> conns = new HashMap<>();
    private final TreeMap<Key, Op> pending = new TreeMap<>();
    /**
     * Scenario partitions by virtual time (a null cut clears): a send is cut by the partition in force at its
     * {@code local_vt}. Sends are applied in key order, so which sends a partition cuts depends on the seed only.
     */
    private final TreeMap<Long, java.util.function.BiPredicate<VAddr, VAddr>> cuts = new TreeMap<>(Long::compareUnsigned);
    /**
     * The same partitions for the TCP streams (spec in the net spec's syntax; empty: healed), not yet applied: each
     * reaches the stream model once no node can act before its instant, in key order (docs/tcp.md, windowed runs).
     */
    private final TreeMap<Long, String> streamPartitions = new TreeMap<>(Long::compareUnsigned);
    private long nextInternalConn;
    private long nextLogConn;
    /**
     * Counts the changes that may have touched the stream model (anything applied). A held TCP wait's known instant
     * is a function of the model and its clockBefore only, so it is computed once per epoch, not once per node bound
     * that asks for it: advance() asks for every held wait's instant several times per step, and with a few dozen
     * held waits (a Sentinel cluster) that was most of the broker's CPU (docs/benchmarks.md, "Redis failover run").
     */
    private long modelEpoch;
    private Key lastApplied;
    private String discarded;
    /** The run's end (--end-when-exited): nodes held until their process exits, and the cut once all have. */
    private final RunEndCut endCut = new RunEndCut();
    /** The nodes' processes as the launcher reported them: a running one holds the frontier even with no socket. */
    private final NodeProcesses processes = new NodeProcesses();
    /** Receives the deadlock verdict (called once, under the lock); null: a deadlock discards the run instead. */
    private java.util.function.Consumer<DeadlockVerdict> onDeadlock;
    private DeadlockVerdict deadlock;

    // statistics
    private long windowsSealed;
    private long maxWindowBuffer;
    private final Map<NodeId, Long> maxLag = new TreeMap<>();
    /** TCP requests by kind (a TcpWait by whether it declared the node idle): each is one round trip. */
    private final Map<String, Long> tcpRequests = new TreeMap<>();

    record NodeId(long host, long node) implements Comparable<NodeId> {
        @Override
        public int compareTo(NodeId o) {
            int c = Long.compareUnsigned(node, o.node); // as Key: node first, so messages list nodes in id order
            return c != 0 ? c : Long.compareUnsigned(host, o.host);
        }

        @Override
        public String toString() {
            return host == 0 ? "node " + node : "node " + node + "@host " + host;
        }
    }

    /**
     * The recording order: virtual time, then node, host, then the node's program order, then (only for Goodbyes,
     * which have no reply and so reach the broker in a racing order) the socket's creation order.
     *
     * <p>Node before host: a node id names one node cluster-wide (its address 127.0.0.(n+1) derives from it), so
     * the host only breaks ties between hand-started nodes that reuse an id. Ordering by host first would make the
     * recording depend on where the nodes were placed; this way a cluster split over several host agents records
     * exactly what it records on one machine. (core-and-replay.md §3, informative, lists host first; with one host
     * the two orders are the same.)
     */
    record Key(long vt, long host, long node, long seq, long sub) implements Comparable<Key> {
        Key(long vt, long host, long node, long seq) {
            this(vt, host, node, seq, 0);
        }

        @Override
        public int compareTo(Key o) {
            int c = Long.compareUnsigned(vt, o.vt);
            if (c == 0) c = Long.compareUnsigned(node, o.node);
            if (c == 0) c = Long.compareUnsigned(host, o.host);
            if (c == 0) c = Long.compareUnsigned(seq, o.seq);
            return c != 0 ? c : Long.compareUnsigned(sub, o.sub);
        }
    }

    private static final class NodeState {
        final NodeId id;
        long clock;
        long seq;
        /** Goodbyes share the current seq (see Key); the next other operation moves past it. */
        boolean byeAtSeq;
        long sockets;
        boolean seen;
        int openConns;
        /** Receives waiting for their outcome, by internal conn id. */
        final TreeMap<Long, RecvWait> waiting = new TreeMap<>();
        /** Buffered (not yet applied) sends per window index. */
        final TreeMap<Long, Long> buffered = new TreeMap<>();
        /** TCP requests waiting for the stream model (a TcpWait, a blocking read …), by internal conn id. */
        final TreeMap<Long, TcpWait> tcpWaits = new TreeMap<>();
        /**
         * Connections (internal ids) whose set-aside TcpWait was answered at once — its Ready written right after
         * the Ack — and which the node has not used since: until it does, the node may not have taken that Ready,
         * so it runs, whatever a later IDLE wait says (protocol-v3 §2a, "a Ready already handed out").
         */
        final java.util.TreeSet<Long> readyAside = new java.util.TreeSet<>();

        NodeState(NodeId id) {
            this.id = id;
        }
    }

    private static final class ConnState {
        final long internal;
        NodeState node;
        long socketIndex;
        long logId = -1;
        boolean goodbye;
        /** Its disconnect has been recorded (a Goodbye after the run's end never is: the end records it). */
        boolean disconnected;
        /** The bound address (the deadlock verdict names it), or null. */
        VAddr addr;
        /** A TCP socket: its end of connection (EOF) is its close, at a key like a Goodbye's (docs/broker.md). */
        boolean tcp;
        /** A UDP socket (it bound, sent or received): it must say Goodbye before its connection ends. */
        boolean udp;
        /** Its close came as a TcpClose (at the node's clock) and was applied: its EOF only ends the connection. */
        boolean closedByRequest;

        ConnState(long internal) {
            this.internal = internal;
        }
    }

    private static final class RecvWait {
        final ConnState conn;
        final boolean blocking;
        final long bound; // INF for a blocking receive
        final long clockBefore;
        final long seq;
        boolean resolved;
        Delivery delivery;
        long emptyVt;
        /** Asked by a Lease: its final empty is not recorded (the shim may answer the same call from a lease). */
        boolean leased;
        /** A parked blocking lease: the connection that gets its Deliver (its own thread keeps reading). */
        Waiter waiter;

        RecvWait(ConnState conn, boolean blocking, long bound, long clockBefore, long seq) {
            this.conn = conn;
            this.blocking = blocking;
            this.bound = bound;
            this.clockBefore = clockBefore;
            this.seq = seq;
        }
    }

    private sealed interface Op {
    }

    private record HelloOp(ConnState conn) implements Op {
    }

    private record BindOp(ConnState conn, VAddr addr) implements Op {
    }

    private record SendOp(ConnState conn, VAddr src, VAddr dst, byte[] payload, long localVt) implements Op {
    }

    private record ByeOp(ConnState conn) implements Op {
    }

    /** A TCP request, answered (through waiter; null for TcpAbort) when applied at its key. */
    private record TcpOp(ConnState conn, Request.Tcp request, TcpWaiter waiter) implements Op {
    }

    /** The last close of a TCP socket (its broker connection ended): FIN or reset, then the disconnect. */
    private record TcpCloseOp(ConnState conn) implements Op {
    }

    /**
     * A TCP request the stream model could not answer at its key: it is answered at the first instant, from
     * {@code clockBefore} on, at which it can be — once no other node can act before that instant.
     */
    private static final class TcpWait {
        final ConnState conn;
        final Request.Tcp request;
        final TcpWaiter waiter;
        final long seq;
        /** Nothing the request waits for held up to this instant (it only grows). */
        long clockBefore;
        /**
         * Another wait of the node was answered, so the node runs: this one stays held (the shim keeps a socket
         * armed across waits, TcpUnwait takes it back) but bounds nothing until the node waits again.
         */
        boolean dormant;
        /** {@link #tcpKnownInstant}'s last answer, valid while the model epoch and clockBefore are what they were. */
        long knownInstant;
        long knownEpoch = -1;
        long knownClockBefore;

        TcpWait(ConnState conn, Request.Tcp request, TcpWaiter waiter, long clockBefore, long seq) {
            this.conn = conn;
            this.request = request;
            this.waiter = waiter;
            this.clockBefore = clockBefore;
            this.seq = seq;
        }
    }

    /** A delivery to a parked blocking lease, decided under the lock and written after it (as TCP answers). */
    private record LeaseHandoff(Waiter waiter, Delivery delivery) {
    }

    /** The recv record reaches the log before its Deliver. */
    private final DeferredAnswers<LeaseHandoff> leaseHandoffs =
            new DeferredAnswers<>(lock, recorder, h -> h.waiter().deliver(h.delivery()));

    private void flushLeaseHandoffs() {
        leaseHandoffs.flush();
    }

    /** A TCP answer decided under the lock, written after it (see {@link #flushHandoffs}). */
    private record Handoff(TcpWaiter waiter, TcpAnswer answer) {
    }

    private final TcpAnswers tcpAnswers;
    private final DeferredAnswers<Handoff> handoffs =
            new DeferredAnswers<>(lock, recorder, h -> h.waiter().answer(h.answer()));

    /**
     * @param expectedNodes node ids (host 0) that will connect: windows cannot seal before each has said hello
     * @param windowOpsLimit the most sends one node may buffer in one window (0: no limit)
     * @param onDiscard receives the one-line reason when the run must be discarded
     */
    public WindowedSequencer(FateSource fault, Recorder recorder, long windowNs, List<Long> expectedNodes,
            long windowOpsLimit, Consumer<String> onDiscard) {
        this(fault, recorder, windowNs, hostZero(expectedNodes), windowOpsLimit, onDiscard);
    }

    private static Map<Long, Long> hostZero(List<Long> nodes) {
        Map<Long, Long> m = new TreeMap<>();
        nodes.forEach(n -> m.put(n, 0L));
        return m;
    }

    /**
     * As above for nodes spread over several hosts.
     *
     * @param expectedNodeHosts the host id (their {@code WEFT_HOST_ID}) of each node id that will connect
     */
    public WindowedSequencer(FateSource fault, Recorder recorder, long windowNs, Map<Long, Long> expectedNodeHosts,
            long windowOpsLimit, Consumer<String> onDiscard) {
        super(fault, recorder);
        if (windowNs <= 0) {
            throw new IllegalArgumentException("window must be > 0");
        }
        this.windowNs = windowNs;
        this.minDelay = fault.spec().minDelay();
        this.windowOpsLimit = windowOpsLimit;
        this.onDiscard = onDiscard;
        this.tcpAnswers = new TcpAnswers(core, ops.tcp(), true);
        expectedNodeHosts.forEach((n, h) -> {
            NodeId id = new NodeId(h, n);
            nodes.put(id, new NodeState(id));
        });
    }

    /**
     * The lookahead precondition (core-and-replay.md §3, net-and-fault-model.md §3.5): a datagram sent in a
     * window must not be deliverable inside it. Null if it holds, else the reason.
     */
    public static String lookaheadProblem(FateSource fault, long windowNs) {
        long md = fault.spec().minDelay();
        if (Long.compareUnsigned(md, windowNs) < 0) {
            return "the network's minimum latency (" + Long.toUnsignedString(md) + " ns) is below the window ("
                    + windowNs + " ns): a datagram could be delivered inside the window it was sent in";
        }
        return null;
    }

    /**
     * Scenario partition events: from each time on (virtual ns, a send's {@code local_vt}) the given cut holds
     * (null: cleared). A cut datagram never reaches the core and is not recorded, as in single-host scenario runs
     * (the log's one net spec could not replay it). Call before the nodes start.
     */
    public void setPartitionSchedule(Map<Long, java.util.function.BiPredicate<VAddr, VAddr>> byTime) {
        synchronized (lock) {
            cuts.clear();
            cuts.putAll(byTime);
        }
    }

    /**
     * The scenario's partitions for the TCP streams, by instant (spec in the net spec's syntax, empty: healed; checked
     * by the caller). Segments sent across a partition stall until it heals, as in single-host runs. Call before the
     * nodes start.
     */
    public void setStreamPartitions(Map<Long, String> byTime) {
        synchronized (lock) {
            streamPartitions.clear();
            streamPartitions.putAll(byTime);
        }
    }

    /**
     * Applies the stream partitions due by k (safe: no node acts before it) to the stream model; true if any was.
     * Applied no earlier, the model's answers for instants before each partition never depended on it.
     */
    private boolean applyStreamPartitionsBy(Key k) {
        boolean any = false;
        while (!streamPartitions.isEmpty() && Long.compareUnsigned(streamPartitions.firstKey(), k.vt()) <= 0) {
            Map.Entry<Long, String> p = streamPartitions.pollFirstEntry();
            modelEpoch++;
            try {
                ops.tcp().partition(p.getKey(), p.getValue());
            } catch (dev.weft.net.NetSpecException e) {
                throw new IllegalStateException("a partition checked when it was scheduled", e);
            }
            any = true;
        }
        return any;
    }

    /** What each node waits for, and the pending keys (a test's diagnostics when a run stalls). */
    String debugState() {
        synchronized (lock) {
            StringBuilder b = new StringBuilder("pending " + pending.keySet() + "; lastApplied " + lastApplied);
            long future = earliestFutureDelivery();
            for (NodeState n : nodes.values()) {
                b.append("\n").append(n.id).append(" clock ").append(n.clock).append(" seq ").append(n.seq)
                        .append(" open ").append(n.openConns).append(" bound ").append(boundOf(n, future));
                for (TcpWait w : n.tcpWaits.values()) {
                    b.append(" tcpwait conn ").append(w.conn.logId).append(' ').append(w.request).append(" before ")
                            .append(w.clockBefore).append(" known ").append(tcpKnownInstant(w)).append(w.dormant
                            ? " dormant" : "");
                }
            }
            return b.toString();
        }
    }

    /** The reason the run was discarded, or null. */
    public String discardReason() {
        synchronized (lock) {
            return discarded;
        }
    }

    @Override
    public List<String> statsLines() {
        synchronized (lock) {
            List<String> lines = new ArrayList<>(stats.lines());
            lines.add("weft broker: windowed (window " + windowNs + " ns): " + windowsSealed
                    + " window(s) sealed; largest per-window buffer of one node: " + maxWindowBuffer + " send(s)");
            StringBuilder lag = new StringBuilder("weft broker: frontier lag per node (max ns behind the fastest):");
            for (Map.Entry<NodeId, Long> e : maxLag.entrySet()) {
                lag.append(' ').append(e.getKey().node()).append('=').append(Long.toUnsignedString(e.getValue()));
            }
            lines.add(lag.toString());
            if (!tcpRequests.isEmpty()) {
                StringBuilder req = new StringBuilder("weft broker: tcp requests by kind (one round trip each):");
                tcpRequests.forEach((kind, count) -> req.append(' ').append(kind).append('=').append(count));
                lines.add(req.toString());
            }
            return lines;
        }
    }

    @Override
    public long connect() {
        synchronized (lock) {
            long id = nextInternalConn++;
            conns.put(id, new ConnState(id));
            touch();
            return id; // nothing recorded yet: the connect is recorded with the hello, at its key
        }
    }

    @Override
    public long hello(long conn, long nodeId) {
        return hello(conn, nodeId, 0);
    }

    @Override
    public long hello(long conn, long nodeId, long hostId) {
        try {
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                NodeId id = new NodeId(hostId, nodeId);
                NodeState n = nodes.computeIfAbsent(id, NodeState::new);
                c.node = n;
                c.socketIndex = n.sockets++;
                n.seen = true;
                n.openConns++;
                enqueue(n, new Key(n.clock, hostId, nodeId, nextSeq(n)), new HelloOp(c), "hello");
                advance();
                return core.vt();
            }
        } finally {
            flushHandoffs(); // answers a TCP wait resolved by this operation
        }
    }

    @Override
    public long bind(long conn, VAddr addr) {
        try {
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                if (c.node == null) {
                    return core.vt(); // the shim binds only after hello; a peer that does not is ignored
                }
                NodeState n = c.node;
                c.addr = addr;
                c.udp = true;
                enqueue(n, new Key(n.clock, n.id.host(), n.id.node(), nextSeq(n)), new BindOp(c, addr), "bind");
                advance();
                return core.vt();
            }
        } finally {
            flushHandoffs(); // answers a TCP wait resolved by this operation
        }
    }

    @Override
    public SendReply send(long conn, VAddr src, VAddr dst, byte[] payload, long localVt) {
        try {
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                if (c.node == null) {
                    return new SendReply(core.vt(), null, null);
                }
                NodeState n = c.node;
                c.udp = true;
                n.clock = max(n.clock, localVt);
                Key k = new Key(localVt, n.id.host(), n.id.node(), nextSeq(n));
                if (enqueue(n, k, new SendOp(c, src, dst, payload, localVt), "send")) {
                    long w = Long.divideUnsigned(localVt, windowNs);
                    long count = n.buffered.merge(w, 1L, Long::sum);
                    maxWindowBuffer = Math.max(maxWindowBuffer, count);
                    if (windowOpsLimit > 0 && count > windowOpsLimit) {
                        discard(n.id + " buffered more than " + windowOpsLimit + " sends in window " + w
                                + " (--window-ops)");
                    }
                }
                advance();
                return new SendReply(core.vt(), null, null);
            }
        } finally {
            flushHandoffs(); // answers a TCP wait resolved by this operation
        }
    }

    @Override
    public RecvReply recv(long conn, boolean blocking, long localVt, Waiter waiter) {
        try {
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                if (c.node == null) {
                    return new RecvReply(null, core.vt(), false);
                }
                NodeState n = c.node;
                c.udp = true;
                RecvWait w = n.waiting.get(conn);
                if (w == null) {
                    // a new receive call (a retry of an unresolved one finds its RecvWait)
                    if (blocking) {
                        n.clock = max(n.clock, localVt);
                    }
                    w = new RecvWait(c, blocking, blocking ? INF : localVt, n.clock, nextSeq(n));
                    Key earliest = new Key(blocking ? w.clockBefore : max(w.clockBefore, 0), n.id.host(), n.id.node(),
                            w.seq);
                    if (lastApplied != null && earliest.compareTo(lastApplied) < 0) {
                        discard("protocol violation: " + n.id + " received at local_vt " + Long.toUnsignedString(localVt)
                                + " after virtual time " + Long.toUnsignedString(lastApplied.vt()) + " was sealed");
                    }
                    n.waiting.put(conn, w);
                    advance();
                }
                // A non-blocking receive (or one with a timeout) must get its final answer in this reply: hold it.
                while (!w.resolved && !blocking && discarded == null && !finished) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        break;
                    }
                }
                if (!w.resolved) {
                    // blocking: not yet; the shim reports its frontier and asks again (nothing recorded)
                    return new RecvReply(null, sealedHorizon(), false);
                }
                n.waiting.remove(conn);
                return w.delivery != null ? new RecvReply(w.delivery, w.delivery.vt(), false)
                        : new RecvReply(null, w.emptyVt, false);
            }
        } finally {
            flushHandoffs();
        }
    }

    /**
     * A leased receive (wire tag 28, docs/broker.md "Receive leases"): as {@link #recv}, but every mode is held until
     * its final outcome (a blocking one too: the shim sends it only when its node's one thread waits there, so no
     * Empty/Frontier polling is needed), a final empty is not recorded (whether the broker or the shim's lease
     * answered it depends on real time), and an empty carries the lease: the earliest virtual time at which a
     * datagram can still reach this socket while its node asks the broker nothing else (any request of the node,
     * a send above all, may start a chain of datagrams back to it; the shim drops its leases at each one).
     */
    @Override
    public LeaseReply lease(long conn, int mode, long localVt, Waiter waiter) {
        try {
            RecvWait w;
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                if (c.node == null) {
                    return new LeaseReply(null, core.vt(), 0);
                }
                NodeState n = c.node;
                c.udp = true;
                boolean blocking = mode == dev.weft.broker.wire.Wire.LEASE_BLOCKING;
                w = n.waiting.get(conn);
                if (w == null) {
                    if (blocking) {
                        n.clock = max(n.clock, localVt);
                    }
                    w = new RecvWait(c, blocking, blocking ? INF : localVt, n.clock, nextSeq(n));
                    w.leased = true;
                    Key earliest = new Key(w.clockBefore, n.id.host(), n.id.node(), w.seq);
                    if (lastApplied != null && earliest.compareTo(lastApplied) < 0) {
                        discard("protocol violation: " + n.id + " received at local_vt " + Long.toUnsignedString(localVt)
                                + " after virtual time " + Long.toUnsignedString(lastApplied.vt()) + " was sealed");
                    }
                    n.waiting.put(conn, w);
                    advance();
                } else {
                    w.leased = true; // a blocking poll's RecvWait, now held (nothing recorded about it yet)
                }
                if (blocking && !w.resolved) {
                    // parked like a plain run's blocking Recv: the connection's thread goes on reading, so a node
                    // killed while it waits is a disconnect at once; the delivery is handed over (applyRecv)
                    w.waiter = waiter;
                    return LeaseReply.WAIT;
                }
            }
            // Held until resolved. Deliveries this thread's own operations handed to parked receivers go out before
            // each wait, outside the lock: the node this one waits for may be one of them.
            for (;;) {
                flushLeaseHandoffs();
                synchronized (lock) {
                    if (w.resolved || discarded != null || finished || deadlock != null) {
                        break;
                    }
                    if (leaseHandoffs.isEmpty()) {
                        try {
                            lock.wait();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            break;
                        }
                    }
                }
            }
            synchronized (lock) {
                NodeState n = w.conn.node;
                if (!w.resolved) {
                    return new LeaseReply(null, sealedHorizon(), 0); // the run ends: no lease, the shim asks again
                }
                n.waiting.remove(conn);
                if (w.delivery != null) {
                    return new LeaseReply(w.delivery, w.delivery.vt(), 0);
                }
                // With the receive gone, n runs. Until n's next request (its shim keeps the lease only that long)
                // nothing it does can make a datagram: only the others' sends, and what is queued or buffered, can.
                return new LeaseReply(null, w.emptyVt, min(queueHead(w.conn), earliestFutureDelivery(n)));
            }
        } finally {
            flushHandoffs();
        }
    }

    @Override
    public long frontier(long conn, long localVt) {
        try {
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                if (c.node != null) {
                    c.node.clock = max(c.node.clock, localVt);
                    advance();
                }
                return core.vt();
            }
        } finally {
            flushHandoffs(); // answers a TCP wait resolved by this operation
        }
    }

    @Override
    public void goodbye(long conn) {
        try {
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                if (c == null || c.node == null || c.goodbye) {
                    return;
                }
                c.goodbye = true;
                NodeState n = c.node;
                RecvWait w = n.waiting.remove(conn);
                if (w != null && !w.resolved) {
                    discard("protocol violation: " + n.id + " said Goodbye while a receive waited");
                }
                // no reply, so a node's Goodbyes (e.g. all its sockets at exit) race each other here: they share the
                // node's current seq and are ordered by socket creation order
                n.byeAtSeq = true;
                enqueue(n, new Key(n.clock, n.id.host(), n.id.node(), n.seq, 1 + c.socketIndex), new ByeOp(c), "goodbye");
                n.openConns--;
                advance();
            }
        } finally {
            flushHandoffs(); // answers a TCP wait resolved by this operation
        }
    }

    @Override
    public void disconnect(long conn) {
        try {
            synchronized (lock) {
                touch();
                ConnState c = conns.get(conn);
                if (c == null || c.goodbye || c.node == null || finished || discarded != null || deadlock != null) {
                    return; // (after a verdict the launcher stops every node)
                }
                if (c.tcp || !c.udp) { // a socket that only said Hello may be a TCP socket closed unused
                    closeTcp(c);
                    return;
                }
                discard(c.node.id + " (conn " + conn + ") ended without Goodbye (killed or crashed mid-run)");
            }
        } finally {
            flushHandoffs(); // answers a TCP wait resolved by this operation
        }
    }

    /**
     * A TCP socket's connection ended: that is its close. It has no reply and no clock, so, like a Goodbye, it takes
     * the node's current seq and its socket's creation order; a process that exits closes all its sockets at once
     * and they are ordered the same way every run.
     */
    private void closeTcp(ConnState c) {
        NodeState n = c.node;
        c.goodbye = true;
        if (c.closedByRequest) { // recorded at its TcpClose's key already
            n.openConns--;
            advance();
            return;
        }
        n.tcpWaits.remove(c.internal);
        n.byeAtSeq = true;
        enqueue(n, new Key(n.clock, n.id.host(), n.id.node(), n.seq, 1 + c.socketIndex), new TcpCloseOp(c), "close");
        n.openConns--;
        advance();
    }

    @Override
    public TcpReply tcp(long conn, Request.Tcp r, TcpWaiter waiter) {
        synchronized (lock) {
            touch();
            ConnState c = conns.get(conn);
            if (c.node == null) {
                return new TcpReply(new TcpAnswer.Error(22 /* EINVAL: no Hello yet */, core.vt()), null);
            }
            c.tcp = true;
            tcpRequests.merge(requestKind(r), 1L, Long::sum);
            NodeState n = c.node;
            long localVt = SingleHostSequencer.localVtOf(r);
            n.clock = max(n.clock, localVt);
            Key k = new Key(n.clock, n.id.host(), n.id.node(), nextSeq(n));
            enqueue(n, k, new TcpOp(c, r, r instanceof Request.TcpAbort ? null : waiter),
                    "tcp (" + r.getClass().getSimpleName() + ")");
            advance();
        }
        flushHandoffs();
        return TcpReply.HELD; // every answer is written when its request is applied, in key order
    }

    private static String requestKind(Request.Tcp r) {
        String kind = r.getClass().getSimpleName();
        if (r instanceof Request.TcpWait w) {
            return kind + (w.probe() ? "(probe)" : w.idle() ? "(idle)" : "(aside)");
        }
        return kind;
    }

    /** Writes the TCP answers decided so far, after their records went out (outside the lock). */
    private void flushHandoffs() {
        flushLeaseHandoffs();
        handoffs.flush();
    }

    private static long ipOf(NodeState n) {
        return 0x7F000001L + n.id.node();
    }

    @Override
    protected void completeRecordingLocked() {
        modelEpoch++;
        if (discarded == null) {
            // every node is gone: nothing can come before what is pending any more
            for (NodeState n : nodes.values()) {
                n.openConns = 0;
                n.seen = true;
                n.waiting.clear();
                n.tcpWaits.clear();
            }
            while (!pending.isEmpty()) {
                Map.Entry<Key, Op> e = pending.pollFirstEntry();
                apply(e.getKey(), e.getValue());
            }
            List<ConnState> open = new ArrayList<>();
            for (ConnState c : conns.values()) {
                if (c.logId >= 0 && !c.disconnected) {
                    open.add(c);
                }
            }
            open.sort((a, b) -> Long.compare(a.logId, b.logId));
            for (ConnState c : open) {
                ops.disconnect(c.logId);
            }
            ops.finish();
        }
        lock.notifyAll();
    }

    // ------------------------------------------------------------------ ordering

    /** Buffers op at key k; false (and the run discarded) if k falls before what was already applied. */
    private boolean enqueue(NodeState n, Key k, Op op, String what) {
        if (endCut.after(k)) {
            return false; // after the run's end: never recorded (the node is about to be stopped)
        }
        if (lastApplied != null && k.compareTo(lastApplied) < 0) {
            discard("protocol violation: " + n.id + " " + what + " at local_vt " + Long.toUnsignedString(k.vt())
                    + " after virtual time " + Long.toUnsignedString(lastApplied.vt()) + " was sealed (late op)");
            return false;
        }
        pending.put(k, op);
        return true;
    }

    /** The earliest a datagram not yet in any queue can be delivered: (smallest possible next send) + min_delay. */
    private long earliestFutureDelivery() {
        return earliestFutureDelivery(null);
    }

    /**
     * As {@link #earliestFutureDelivery()}, but a running {@code quiet} node's own next sends do not count: the bound
     * for as long as that node asks the broker nothing more (a lease; the shim drops it at its node's next request).
     */
    private long earliestFutureDelivery(NodeState quiet) {
        long l = INF;
        if (!pending.isEmpty()) {
            l = pending.firstKey().vt();
        }
        for (NodeState n : nodes.values()) {
            if (n == quiet && n.seen && !waits(n)) {
                continue;
            }
            if (awaitsHello(n)) {
                l = 0;
            } else if (n.openConns == 0 && !waits(n) && !held(n)) {
                continue;
            } else if (!waits(n)) {
                l = min(l, n.clock);
            } else {
                for (RecvWait w : n.waiting.values()) {
                    if (w.resolved) {
                        continue;
                    }
                    l = min(l, max(w.clockBefore, min(queueHead(w.conn), w.bound)));
                }
                for (TcpWait w : n.tcpWaits.values()) {
                    if (!w.dormant) {
                        l = min(l, max(w.clockBefore, tcpKnownInstant(w)));
                    }
                }
            }
        }
        return l == INF ? INF : saturatingAdd(l, minDelay);
    }

    /**
     * The smallest key n's next recorded operation can have (null: n will record nothing more). A running node
     * acts no earlier than its clock; a node waiting in a receive acts when that receive returns, which is no
     * earlier than its next delivery (already queued, or a future one) or its bound.
     */
    private Key boundOf(NodeState n, long futureDelivery) {
        if (awaitsHello(n)) {
            return new Key(0, n.id.host(), n.id.node(), 0);
        }
        if (waits(n)) {
            Key best = null;
            for (RecvWait w : n.waiting.values()) {
                if (w.resolved) {
                    continue;
                }
                long v = max(w.clockBefore, min(min(queueHead(w.conn), futureDelivery), w.bound));
                Key k = new Key(v, n.id.host(), n.id.node(), w.seq);
                best = best == null || k.compareTo(best) < 0 ? k : best;
            }
            for (TcpWait w : n.tcpWaits.values()) {
                if (w.dormant) {
                    continue;
                }
                Key k = new Key(tcpWaitInstant(w, futureDelivery), n.id.host(), n.id.node(), w.seq);
                best = best == null || k.compareTo(best) < 0 ? k : best;
            }
            return best;
        }
        if (n.openConns == 0) {
            // a node whose process has not exited may still open a socket (a reconnect), at its clock
            return held(n) ? new Key(n.clock, n.id.host(), n.id.node(), n.seq, n.byeAtSeq ? 1 : 0)
                    : null;
        }
        // after a Goodbye, another of its sockets may still say Goodbye at the same seq (sub ≥ 1)
        return new Key(n.clock, n.id.host(), n.id.node(), n.seq, n.byeAtSeq ? 1 : 0);
    }

    /**
     * True if one of n's receives still waits for its outcome (a resolved one only waits to be picked up), or one
     * of its TCP requests waits for the stream model.
     */
    private static boolean waits(NodeState n) {
        for (RecvWait w : n.waiting.values()) {
            if (!w.resolved) {
                return true;
            }
        }
        for (TcpWait w : n.tcpWaits.values()) {
            if (!w.dormant) {
                return true;
            }
        }
        return false;
    }

    /**
     * True if n may still open a socket with no socket open now: its process has not exited (the launcher said it
     * started), or the run's end waits for it (a listed node, until its exit).
     */
    private boolean held(NodeState n) {
        return processes.runs(n.id.node()) || endCut.held(n.id.node());
    }

    /** n has not said hello yet and still may: an expected node, unless its process exited without a socket. */
    private boolean awaitsHello(NodeState n) {
        return !n.seen && !processes.hasExited(n.id.node());
    }

    private long queueHead(ConnState c) {
        if (c.logId < 0 || core.queueLength(c.logId) == 0) {
            return INF;
        }
        return core.peek(c.logId).delivNs();
    }

    /** Applies every operation that is now safe, in key order; detects deadlock. */
    private void advance() {
        boolean progressed = false;
        while (discarded == null && !finished && deadlock == null) {
            long future = earliestFutureDelivery();
            // the resolvable receive with the smallest key
            RecvWait bestRecv = null;
            Key bestRecvKey = null;
            for (NodeState n : nodes.values()) {
                for (RecvWait w : n.waiting.values()) {
                    if (w.resolved) {
                        continue;
                    }
                    long q = queueHead(w.conn);
                    Key k = null;
                    if (q != INF && Long.compareUnsigned(q, w.bound) <= 0 && Long.compareUnsigned(q, future) < 0) {
                        k = new Key(max(w.clockBefore, q), n.id.host(), n.id.node(), w.seq);
                    } else if (!w.blocking && Long.compareUnsigned(w.bound, future) < 0
                            && (q == INF || Long.compareUnsigned(q, w.bound) > 0)) {
                        k = new Key(max(w.clockBefore, w.bound), n.id.host(), n.id.node(), w.seq);
                    }
                    if (k != null && (bestRecvKey == null || k.compareTo(bestRecvKey) < 0)) {
                        bestRecv = w;
                        bestRecvKey = k;
                    }
                }
            }
            // the TCP wait with the smallest instant
            TcpWait bestTcp = null;
            Key bestTcpKey = null;
            for (NodeState n : nodes.values()) {
                for (TcpWait w : n.tcpWaits.values()) {
                    if (w.dormant) {
                        continue;
                    }
                    long t = tcpWaitInstant(w, future);
                    if (t == INF) {
                        continue;
                    }
                    Key k = new Key(t, n.id.host(), n.id.node(), w.seq);
                    if (bestTcpKey == null || k.compareTo(bestTcpKey) < 0) {
                        bestTcp = w;
                        bestTcpKey = k;
                    }
                }
            }
            Key pendingKey = pending.isEmpty() ? null : pending.firstKey();
            boolean takeRecv = bestRecvKey != null && (pendingKey == null || bestRecvKey.compareTo(pendingKey) < 0);
            Key k = takeRecv ? bestRecvKey : pendingKey;
            boolean takeTcp = bestTcpKey != null && (k == null || bestTcpKey.compareTo(k) < 0);
            if (takeTcp) {
                k = bestTcpKey;
                takeRecv = false;
            }
            if (k == null || endCut.after(k)) {
                break;
            }
            NodeState own = takeRecv ? bestRecv.conn.node : takeTcp ? bestTcp.conn.node : null;
            if (!safe(k, own, future)) {
                break;
            }
            if (applyStreamPartitionsBy(k)) {
                progressed = true;
                continue; // a partition or heal changes what the streams hold from its instant on: choose again
            }
            if (takeTcp) {
                if (!resolveTcpWait(k, bestTcp)) {
                    break;
                }
            } else if (takeRecv) {
                applyRecv(k, bestRecv);
            } else {
                apply(k, pending.pollFirstEntry().getValue());
            }
            progressed = true;
        }
        if (discarded == null && !finished && deadlock == null) {
            noteSealing();
            checkDeadlock();
        }
        if (progressed) {
            lock.notifyAll();
        }
    }

    /** k is safe when no node (other than a receiver's own) can still record anything before it. */
    private boolean safe(Key k, NodeState except, long future) {
        for (NodeState n : nodes.values()) {
            if (n == except) {
                continue;
            }
            Key b = boundOf(n, future);
            if (b != null && k.compareTo(b) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** The virtual time below which every window is sealed (the smallest bound of any node). */
    private long sealedHorizon() {
        long future = earliestFutureDelivery();
        long h = INF;
        for (NodeState n : nodes.values()) {
            Key b = boundOf(n, future);
            if (b != null) {
                h = min(h, b.vt());
            }
        }
        return h;
    }

    private void noteSealing() {
        long future = earliestFutureDelivery();
        long h = INF;
        long fastest = 0;
        for (NodeState n : nodes.values()) {
            Key b = boundOf(n, future);
            if (b != null) {
                h = min(h, b.vt());
            }
            if (n.seen) {
                fastest = max(fastest, n.clock);
            }
        }
        for (NodeState n : nodes.values()) {
            if (n.seen && (n.openConns > 0)) {
                long lag = fastest - n.clock;
                maxLag.merge(n.id, lag, Math::max);
            }
        }
        if (h != INF) {
            windowsSealed = Math.max(windowsSealed, Long.divideUnsigned(h, windowNs));
        }
    }

    /** Every node is gone or waits in a blocking receive, and nothing is in flight: nobody can ever wake. */
    private void checkDeadlock() {
        if (!pending.isEmpty() || endCut.isCut()) { // an ending run stops its waiters itself
            return;
        }
        if (!pending.isEmpty()) {
            return;
        }
        boolean anyWaiting = false;
        for (NodeState n : nodes.values()) {
            if (awaitsHello(n)) {
                return;
            }
            if (!waits(n)) {
                if (n.openConns > 0 || held(n)) {
                    return; // running (a process with no socket open runs too)
                }
                continue;
            }
            for (RecvWait w : n.waiting.values()) {
                if (w.resolved || !w.blocking || queueHead(w.conn) != INF) {
                    return;
                }
            }
            // a TCP wait (the node idle in it, protocol-v3 §2a) that no instant can answer: no deadline, and nothing
            // scheduled on its socket (no segment, FIN, reset or handshake on the way)
            for (TcpWait w : n.tcpWaits.values()) {
                if (!w.dormant && tcpKnownInstant(w) != INF) {
                    return;
                }
            }
            anyWaiting = true;
        }
        if (anyWaiting) {
            java.util.SortedMap<Long, String> waits = new TreeMap<>(Long::compareUnsigned);
            StringBuilder who = new StringBuilder();
            for (NodeState n : nodes.values()) {
                if (!n.waiting.isEmpty()) {
                    who.append(who.length() == 0 ? "" : ", ").append(n.id.node());
                    VAddr a = n.waiting.firstEntry().getValue().conn.addr;
                    waits.putIfAbsent(n.id.node(), "recv on " + (a == null ? "an unbound socket" : a.toString()));
                } else if (waits(n)) {
                    who.append(who.length() == 0 ? "" : ", ").append(n.id.node());
                    for (TcpWait w : n.tcpWaits.values()) { // lowest conn first: the map is by internal conn id
                        if (!w.dormant) {
                            waits.putIfAbsent(n.id.node(), tcpWaitText(w));
                        }
                    }
                }
            }
            if (onDeadlock == null) {
                discard("deadlock: node(s) " + who + " wait for a datagram and none is in flight (at vt "
                        + Long.toUnsignedString(core.vt()) + ")");
                return;
            }
            deadlock = new DeadlockVerdict(waits, core.vt());
            ops.deadlock(deadlock);
            lock.notifyAll();
            onDeadlock.accept(deadlock);
        }
    }

    private void apply(Key k, Op op) {
        modelEpoch++;
        lastApplied = k;
        if (op instanceof HelloOp h) {
                ConnState c = h.conn();
                c.logId = nextLogConn++;
                ops.connect(c.logId);
                ops.hello(c.logId, c.node.id.node());
        } else if (op instanceof BindOp b) {
                ops.bind(b.conn().logId, b.addr());
        } else if (op instanceof SendOp s) {
                NodeState n = s.conn().node;
                n.buffered.computeIfPresent(Long.divideUnsigned(s.localVt(), windowNs), (w, c) -> c == 1 ? null : c - 1);
                Map.Entry<Long, java.util.function.BiPredicate<VAddr, VAddr>> cut = cuts.floorEntry(s.localVt());
                if (cut != null && cut.getValue() != null && cut.getValue().test(s.src(), s.dst())) {
                    stats.partitionCuts++;
                    return;
                }
                ops.send(s.conn().logId, s.src(), s.dst(), s.payload(), s.localVt());
        } else if (op instanceof ByeOp b) {
                b.conn().disconnected = true;
                ops.disconnect(b.conn().logId);
        } else if (op instanceof TcpCloseOp t) {
                t.conn().node.readyAside.remove(t.conn().internal);
                ops.tcp().applyStallResets(k.vt());
                ops.tcp().close(t.conn().logId);
                tcpAnswers.forget(t.conn().logId);
                ops.disconnect(t.conn().logId);
        } else if (op instanceof TcpOp t) {
                applyTcp(k, t);
        }
    }

    /** Applies a TCP request at its key: answered now, or waiting from this instant on. */
    private void applyTcp(Key k, TcpOp t) {
        ConnState c = t.conn();
        NodeState n = c.node;
        long conn = c.logId;
        ops.tcp().applyStallResets(k.vt());
        Request.Tcp r = t.request();
        // a request on the connection comes after the shim read every reply before it, a Ready handed out included
        n.readyAside.remove(c.internal);
        if (r instanceof Request.TcpAbort) {
            ops.tcp().abort(conn);
            return;
        }
        if (r instanceof Request.TcpClose) {
            // the last close at the node's clock (protocol-v3 §2a): FIN or reset, then the disconnect, in key order
            n.tcpWaits.remove(c.internal);
            ops.tcp().close(conn);
            tcpAnswers.forget(conn);
            c.closedByRequest = true;
            c.disconnected = true;
            ops.disconnect(conn);
            handoffs.add(new Handoff(t.waiter(), new TcpAnswer.Ack(k.vt())));
            return;
        }
        if (r instanceof Request.TcpUnwait) {
            TcpWait held = n.tcpWaits.remove(c.internal);
            TcpAnswer ack = new TcpAnswer.UnwaitAck(k.vt());
            if (held != null && held.request instanceof Request.TcpWait w) {
                TcpAnswer ready = tcpAnswers.readyNow(conn, w.events(), k.vt(), k.vt());
                handoffs.add(new Handoff(t.waiter(), new TcpAnswer.TakenBack(ready, ack)));
            } else {
                handoffs.add(new Handoff(t.waiter(), ack));
            }
            return;
        }
        // protocol-v3 §2a: a wait that declares the node idle while a Ready the broker handed to one of its set-aside
        // waits may still be unread does not: the node runs as soon as it reads that Ready (the same wait call
        // returns at once), so this wait is answered as a probe — a wake-up — and bounds nothing
        boolean readyUnread = r instanceof Request.TcpWait w && w.idle() && !n.readyAside.isEmpty();
        if (r instanceof Request.TcpWait w && (w.probe() || readyUnread)) { // a zero timeout: what holds now
            handoffs.add(new Handoff(t.waiter(), tcpAnswers.readyNow(conn, w.events(), k.vt(), k.vt())));
            return;
        }
        // protocol-v3 §2a: a wait that does not make the node idle is acknowledged at once (so the node's next request
        // comes after it in program order), its Ready, if it holds already, right after
        TcpAnswer aside = r instanceof Request.TcpWait w && !w.idle() ? new TcpAnswer.SetAside(k.vt()) : null;
        TcpAnswers.Attempt a = tcpAnswers.attempt(conn, ipOf(n), r, k.vt(), k.vt());
        if (a.waits()) {
            stats.tcpHeldWaits++;
            if (aside != null) {
                handoffs.add(new Handoff(t.waiter(), aside));
            }
            TcpWait held = new TcpWait(c, r, t.waiter(), k.vt(), k.seq());
            // protocol-v3 §2a: only a wait that says the node is idle (no thread of it runs) makes the node's held
            // waits bound it; another one is held aside (dormant) until the node declares itself idle
            if (!(r instanceof Request.TcpWait w) || w.idle()) {
                for (TcpWait other : n.tcpWaits.values()) {
                    if (other.dormant) { // the node waits again: its sockets still armed count again, from now on
                        other.dormant = false;
                        other.clockBefore = max(other.clockBefore, k.vt());
                    }
                }
            } else {
                held.dormant = true;
            }
            n.tcpWaits.put(c.internal, held);
            return;
        }
        n.clock = max(n.clock, a.atNs()); // a blocking connect's answer holds at the handshake's end
        if (aside != null) {
            n.readyAside.add(c.internal);
        }
        handoffs.add(new Handoff(t.waiter(), aside == null ? a.answer() : new TcpAnswer.Both(aside, a.answer())));
    }

    /**
     * The earliest instant, from w.clockBefore on, at which w could be answered by time alone: at once if it
     * could be answered now, else the model's next change on its socket or a TcpWait's deadline (NEVER: only
     * another operation can answer it).
     */
    private long tcpKnownInstant(TcpWait w) {
        if (w.knownEpoch == modelEpoch && w.knownClockBefore == w.clockBefore) {
            return w.knownInstant;
        }
        long known = computeTcpKnownInstant(w);
        w.knownInstant = known;
        w.knownEpoch = modelEpoch;
        w.knownClockBefore = w.clockBefore;
        return known;
    }

    private long computeTcpKnownInstant(TcpWait w) {
        long conn = w.conn.logId;
        long at = w.clockBefore;
        TcpNetwork.Readiness rd = ops.tcp().net().readiness(conn, at);
        long events = w.request instanceof Request.TcpWait tw ? tw.events() : tcpEventsOf(w.request);
        long mask = events | TcpNetwork.POLLERR | TcpNetwork.POLLHUP | TcpNetwork.POLLRDHUP;
        if ((rd.events() & mask) != 0) {
            return at;
        }
        long next = rd.nextChangeNs();
        if (w.request instanceof Request.TcpWait tw && tw.deadlineVt() != 0) {
            long d = max(tw.deadlineVt(), at);
            next = next == TcpNetwork.NEVER ? d : min(next, d);
        }
        return next == TcpNetwork.NEVER ? INF : next;
    }

    /** What a TCP wait waits in, for the deadlock verdict: {@code tcp_read (sid 2)}, {@code tcp_accept (listener …)}. */
    private String tcpWaitText(TcpWait w) {
        String at = ops.tcp().net().endpointText(w.conn.logId);
        long events = w.request instanceof Request.TcpWait tw ? tw.events() : tcpEventsOf(w.request);
        String what;
        if (at.startsWith("listener")) {
            what = "tcp_accept";
        } else if (w.request instanceof Request.TcpWrite || (events & TcpNetwork.POLLIN) == 0) {
            what = at.startsWith("sid") ? "tcp_write" : "tcp_connect";
        } else {
            what = "tcp_read";
        }
        return what + " (" + at + ")";
    }

    /** The poll bits a blocking request waits for. */
    private static long tcpEventsOf(Request.Tcp r) {
        return r instanceof Request.TcpWrite ? TcpNetwork.POLLOUT : TcpNetwork.POLLIN;
    }

    /** The instant w is answered at if nothing else happens first: its known instant, or the earliest future effect. */
    private long tcpWaitInstant(TcpWait w, long futureDelivery) {
        return max(w.clockBefore, min(tcpKnownInstant(w), futureDelivery));
    }

    /**
     * Tries to answer w at instant t (its key is safe): a Ready, a deadline, or the blocked request itself; when
     * nothing holds at t yet, w has waited up to t. True if anything changed.
     */
    private boolean resolveTcpWait(Key k, TcpWait w) {
        modelEpoch++;
        NodeState n = w.conn.node;
        long t = k.vt();
        ops.tcp().applyStallResets(t);
        TcpAnswers.Attempt a = tcpAnswers.attempt(w.conn.logId, ipOf(n), w.request, t, t);
        if (a.waits()) {
            if (Long.compareUnsigned(t, w.clockBefore) <= 0) {
                return false;
            }
            w.clockBefore = t; // nothing it waits for happened up to t
            return true;
        }
        lastApplied = k;
        n.tcpWaits.remove(w.conn.internal);
        for (TcpWait other : n.tcpWaits.values()) {
            other.dormant = true; // the node runs again (see TcpWait.dormant)
        }
        n.clock = max(n.clock, t);
        handoffs.add(new Handoff(w.waiter, a.answer()));
        return true;
    }

    private void applyRecv(Key k, RecvWait w) {
        modelEpoch++;
        lastApplied = k;
        long conn = w.conn.logId;
        NodeState n = w.conn.node;
        if (core.queueLength(conn) > 0 && Long.compareUnsigned(core.peek(conn).delivNs(), w.bound) <= 0) {
            PendingDatagram head = ops.deliver(conn, w.blocking);
            w.delivery = new Delivery(head.src(), head.dst(), head.payload(), head.delivNs());
        } else {
            if (!w.leased) {
                ops.empty(conn);
            }
            w.emptyVt = w.bound;
        }
        n.clock = max(n.clock, k.vt());
        w.resolved = true;
        if (w.waiter != null) { // a parked blocking lease: nobody comes back for it, hand the delivery over
            n.waiting.remove(w.conn.internal);
            leaseHandoffs.add(new LeaseHandoff(w.waiter, w.delivery));
        }
    }

    /**
     * A deadlock ends the run with a verdict instead of a discard (docs/broker.md, "The deadlock verdict"): the
     * verdict is recorded as a {@code violation} record and handed to {@code listener} (under the lock: hand it to
     * another thread); the caller then finishes the log and stops the nodes. Call before the nodes start.
     */
    public void onDeadlock(java.util.function.Consumer<DeadlockVerdict> listener) {
        synchronized (lock) {
            this.onDeadlock = listener;
        }
    }

    // ------------------------------------------------------------------ runs that end (--end-when-exited)

    /**
     * The run ends once these nodes have exited (docs/broker.md, "Runs that end"). Until its process has exited, such
     * a node keeps holding the frontier at its clock even with no socket open, so nothing after its last operation
     * is applied before the launcher knows it is gone. Call before the nodes start.
     */
    public void endWhenExited(java.util.Collection<Long> nodeIds) {
        synchronized (lock) {
            endCut.listen(nodeIds);
        }
    }

    /**
     * The launcher starts (or restarts) this node's process: from now until {@link #nodeExited} it holds the frontier
     * at its clock even with no socket open, since it may open one at any moment (docs/broker.md, "The windowed
     * frontier"). Call before the process can say hello. A node never reported here is judged by its sockets alone.
     */
    public void nodeStarted(long nodeId) {
        synchronized (lock) {
            processes.started(nodeId);
        }
    }

    /**
     * A node's process has exited (any node's, listed or not): it no longer holds the frontier, and if it never
     * said hello the windows no longer wait for it. For a listed node, once all listed have exited, the run's end is the virtual time E of the latest of their
     * clocks: every operation with vt ≤ E is still applied and recorded (in key order, as always), nothing after it
     * (buffered later sends are dropped). A function of the seed and the programs, not of when the exits were noticed.
     */
    public void nodeExited(long nodeId) {
        try {
            synchronized (lock) {
                processes.exited(nodeId);
                if (!endCut.exited(nodeId)) {
                    // not the last: the node no longer holds the frontier at its clock (boundOf), so what waited
                    // behind it now goes on (its sockets' last closes, and a peer's wait for their FIN)
                    advance();
                    return;
                }
                long e = 0;
                for (NodeState n : nodes.values()) {
                    if (endCut.listed(n.id.node())) {
                        e = max(e, n.clock);
                    }
                }
                Key cut = new Key(e, INF, INF, INF, INF);
                endCut.cutAt(cut, e);
                pending.tailMap(cut, false).clear();
                advance();
                lock.notifyAll();
            }
        } finally {
            flushHandoffs(); // answers a TCP wait resolved by this exit
        }
        flushLeaseHandoffs();
    }

    /**
     * Waits (at most {@code realTimeoutNanos} of real time) until everything up to the run's end has been applied:
     * every node's bound is past it. Then the caller finishes the log ({@link #finish()}) and stops the other nodes.
     * Null when settled, else the one-line reason the run was (now) discarded.
     */
    public String awaitEnd(long realTimeoutNanos) {
        long deadline = System.nanoTime() + realTimeoutNanos;
        for (;;) {
            flushLeaseHandoffs(); // a parked receive this advance() resolved gets its datagram (outside the lock)
            synchronized (lock) {
                if (discarded != null || settledAtEnd()) {
                    return discarded;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    discard("the run's end (--end-when-exited) is at vt " + Long.toUnsignedString(endCut.endVt())
                            + ", and " + lagging() + " did not get there within "
                            + java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(realTimeoutNanos) + " s");
                    return discarded;
                }
                try {
                    lock.wait(Math.max(1, Math.min(50, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left))));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return discarded;
                }
                advance();
            }
        }
    }

    /**
     * After {@link #awaitEnd}: a {@code signal} SIGTERM record for each node with a connection still open at the
     * run's end (ascending ids: a function of the seed, like the cut), then the disconnects and {@code end}.
     */
    @Override
    public List<Long> finishWithSignals() {
        List<Long> signalled;
        synchronized (lock) {
            if (finished || discarded != null) {
                return List.of();
            }
            java.util.TreeSet<Long> open = new java.util.TreeSet<>(Long::compareUnsigned);
            for (ConnState c : conns.values()) {
                if (c.logId >= 0 && !c.disconnected && c.node != null) {
                    open.add(c.node.id.node());
                }
            }
            for (long n : open) {
                ops.signal(n, "SIGTERM");
            }
            signalled = List.copyOf(open);
        }
        finish();
        return signalled;
    }

    /** The virtual time of the run's end, once every listed node has exited (else -1). */
    public long endVt() {
        synchronized (lock) {
            return endCut.isCut() ? endCut.endVt() : -1;
        }
    }

    private boolean settledAtEnd() {
        if (!endCut.isCut() || (!pending.isEmpty() && !endCut.after(pending.firstKey()))) {
            return false;
        }
        long future = earliestFutureDelivery();
        for (NodeState n : nodes.values()) {
            Key b = boundOf(n, future);
            if (b != null && !endCut.after(b)) {
                return false;
            }
        }
        return true;
    }

    /** The nodes whose bound is not yet past the run's end, for the message. */
    private String lagging() {
        long future = earliestFutureDelivery();
        StringBuilder who = new StringBuilder();
        for (NodeState n : nodes.values()) {
            Key b = boundOf(n, future);
            if (b != null && !endCut.after(b)) {
                who.append(who.length() == 0 ? "" : ", ").append(n.id).append(" (at vt ")
                        .append(Long.toUnsignedString(b.vt())).append(')');
            }
        }
        return who.length() == 0 ? "nothing" : who.toString();
    }

    private void discard(String reason) {
        if (discarded != null) {
            return;
        }
        discarded = reason;
        lock.notifyAll();
        onDiscard.accept(reason);
    }

    /** The node's next program-order number (after any Goodbyes that share the current one). */
    private static long nextSeq(NodeState n) {
        if (n.byeAtSeq) {
            n.byeAtSeq = false;
            n.seq++;
        }
        return n.seq++;
    }


    private static long max(long a, long b) {
        return Long.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static long min(long a, long b) {
        return Long.compareUnsigned(a, b) <= 0 ? a : b;
    }

    private static long saturatingAdd(long a, long b) {
        long s = a + b;
        return Long.compareUnsigned(s, a) < 0 ? INF : s;
    }
}
