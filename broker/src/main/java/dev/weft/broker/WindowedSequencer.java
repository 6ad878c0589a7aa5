package dev.weft.broker;

import dev.weft.broker.record.Recorder;
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
    private long nextInternalConn;
    private long nextLogConn;
    private Key lastApplied;
    private String discarded;

    // statistics
    private long windowsSealed;
    private long maxWindowBuffer;
    private final Map<NodeId, Long> maxLag = new TreeMap<>();

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
    }

    @Override
    public long bind(long conn, VAddr addr) {
        synchronized (lock) {
            touch();
            ConnState c = conns.get(conn);
            if (c.node == null) {
                return core.vt(); // the shim binds only after hello; a peer that does not is ignored
            }
            NodeState n = c.node;
            enqueue(n, new Key(n.clock, n.id.host(), n.id.node(), nextSeq(n)), new BindOp(c, addr), "bind");
            advance();
            return core.vt();
        }
    }

    @Override
    public SendReply send(long conn, VAddr src, VAddr dst, byte[] payload, long localVt) {
        synchronized (lock) {
            touch();
            ConnState c = conns.get(conn);
            if (c.node == null) {
                return new SendReply(core.vt(), null, null);
            }
            NodeState n = c.node;
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
    }

    @Override
    public RecvReply recv(long conn, boolean blocking, long localVt, Waiter waiter) {
        synchronized (lock) {
            touch();
            ConnState c = conns.get(conn);
            if (c.node == null) {
                return new RecvReply(null, core.vt(), false);
            }
            NodeState n = c.node;
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
    }

    @Override
    public long frontier(long conn, long localVt) {
        synchronized (lock) {
            touch();
            ConnState c = conns.get(conn);
            if (c.node != null) {
                c.node.clock = max(c.node.clock, localVt);
                advance();
            }
            return core.vt();
        }
    }

    @Override
    public void goodbye(long conn) {
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
    }

    @Override
    public void disconnect(long conn) {
        synchronized (lock) {
            touch();
            ConnState c = conns.get(conn);
            if (c == null || c.goodbye || c.node == null || finished || discarded != null) {
                return;
            }
            discard(c.node.id + " (conn " + conn + ") ended without Goodbye (killed or crashed mid-run)");
        }
    }

    @Override
    protected void completeRecordingLocked() {
        if (discarded == null) {
            // every node is gone: nothing can come before what is pending any more
            for (NodeState n : nodes.values()) {
                n.openConns = 0;
                n.seen = true;
                n.waiting.clear();
            }
            while (!pending.isEmpty()) {
                Map.Entry<Key, Op> e = pending.pollFirstEntry();
                apply(e.getKey(), e.getValue());
            }
            List<ConnState> open = new ArrayList<>();
            for (ConnState c : conns.values()) {
                if (c.logId >= 0 && !c.goodbye) {
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
        long l = INF;
        if (!pending.isEmpty()) {
            l = pending.firstKey().vt();
        }
        for (NodeState n : nodes.values()) {
            if (!n.seen) {
                l = 0;
            } else if (n.openConns == 0 && !waits(n)) {
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
        if (!n.seen) {
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
            return best;
        }
        if (n.openConns == 0) {
            return null;
        }
        // after a Goodbye, another of its sockets may still say Goodbye at the same seq (sub ≥ 1)
        return new Key(n.clock, n.id.host(), n.id.node(), n.seq, n.byeAtSeq ? 1 : 0);
    }

    /** True if one of n's receives still waits for its outcome (a resolved one only waits to be picked up). */
    private static boolean waits(NodeState n) {
        for (RecvWait w : n.waiting.values()) {
            if (!w.resolved) {
                return true;
            }
        }
        return false;
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
        while (discarded == null && !finished) {
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
            Key pendingKey = pending.isEmpty() ? null : pending.firstKey();
            boolean takeRecv = bestRecvKey != null && (pendingKey == null || bestRecvKey.compareTo(pendingKey) < 0);
            Key k = takeRecv ? bestRecvKey : pendingKey;
            if (k == null) {
                break;
            }
            if (!safe(k, takeRecv ? bestRecv.conn.node : null, future)) {
                break;
            }
            if (takeRecv) {
                applyRecv(k, bestRecv);
            } else {
                apply(k, pending.pollFirstEntry().getValue());
            }
            progressed = true;
        }
        if (discarded == null && !finished) {
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
        if (!pending.isEmpty()) {
            return;
        }
        boolean anyWaiting = false;
        for (NodeState n : nodes.values()) {
            if (!n.seen) {
                return;
            }
            if (n.waiting.isEmpty()) {
                if (n.openConns > 0) {
                    return; // running
                }
                continue;
            }
            for (RecvWait w : n.waiting.values()) {
                if (w.resolved || !w.blocking || queueHead(w.conn) != INF) {
                    return;
                }
            }
            anyWaiting = true;
        }
        if (anyWaiting) {
            StringBuilder who = new StringBuilder();
            for (NodeState n : nodes.values()) {
                if (!n.waiting.isEmpty()) {
                    who.append(who.length() == 0 ? "" : ", ").append(n.id.node());
                }
            }
            discard("deadlock: node(s) " + who + " wait for a datagram and none is in flight (at vt "
                    + Long.toUnsignedString(core.vt()) + ")");
        }
    }

    private void apply(Key k, Op op) {
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
                ops.disconnect(b.conn().logId);
        }
    }

    private void applyRecv(Key k, RecvWait w) {
        lastApplied = k;
        long conn = w.conn.logId;
        NodeState n = w.conn.node;
        if (core.queueLength(conn) > 0 && Long.compareUnsigned(core.peek(conn).delivNs(), w.bound) <= 0) {
            PendingDatagram head = ops.deliver(conn, w.blocking);
            w.delivery = new Delivery(head.src(), head.dst(), head.payload(), head.delivNs());
        } else {
            ops.empty(conn);
            w.emptyVt = w.bound;
        }
        n.clock = max(n.clock, k.vt());
        w.resolved = true;
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
