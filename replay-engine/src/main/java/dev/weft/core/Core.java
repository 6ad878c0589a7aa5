package dev.weft.core;

import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.FateSource;
import dev.weft.net.Unsigned;
import dev.weft.tcp.TcpNetwork;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The broker core state machine (core-and-replay.md §1), shared by replay, the fuzzer and the recorder.
 * Single-threaded and deterministic: its only inputs are the operations and the fate source (the seeded fault model or a fault plan).
 */
public final class Core {

    private static final Comparator<PendingDatagram> QUEUE_ORDER = (a, b) -> {
        int c = Long.compareUnsigned(a.delivNs(), b.delivNs());
        return c != 0 ? c : Long.compareUnsigned(a.tie(), b.tie());
    };

    private static final byte[] NO_BYTES = new byte[0];

    /** The result of a send: the datagram's per-channel sequence number and what happened to it. */
    public record SendResult(long chanSeq, SendOutcome outcome) {
    }

    private final FateSource fault;
    /** (packed address, 0) -> owning conn id. */
    private final OpenHashTable bound;
    /** (packed src, packed dst) -> next chan_seq. */
    private final OpenHashTable seq;
    /** (conn id, 0) -> ConnQueue. */
    private final OpenHashTable queues;
    /** False for a payload-blind core ({@link #withoutPayloads}). */
    private final boolean keepsPayloads;
    /** The TCP streams (docs/tcp.md); untouched in a UDP-only run. */
    private final TcpNetwork tcp;
    private long vt;
    private long tie;
    private long sent;
    private long dropped;

    public Core(FateSource fault) {
        this(fault, true);
    }

    private Core(FateSource fault, boolean keepsPayloads) {
        this.fault = fault;
        this.keepsPayloads = keepsPayloads;
        this.bound = new OpenHashTable();
        this.seq = new OpenHashTable();
        this.queues = new OpenHashTable();
        this.tcp = new TcpNetwork(fault);
    }

    /**
     * A core that keeps no payload bytes: every delivery carries an empty payload; everything else (chan_seq, ties,
     * fates — which see only a payload's length —, deliveries and vt) is the same as a full core's. For the fuzz
     * sweep, whose invariants judge ties and channels, never bytes: a pending datagram then costs its queue entry
     * rather than a copy of its payload (a workload of 100,000 sends of 10 kB held 0.75 GB per job).
     */
    public static Core withoutPayloads(FateSource fault) {
        return new Core(fault, false);
    }

    private Core(Core o) {
        fault = o.fault; // immutable
        keepsPayloads = o.keepsPayloads;
        bound = o.bound.copy();
        seq = o.seq.copy();
        queues = o.queues.copy();
        for (int s = 0; s < queues.capacity(); s++) {
            if (queues.isUsed(s)) queues.setObject(s, ((ConnQueue) queues.objectValue(s)).copy());
        }
        tcp = o.tcp.copy();
        vt = o.vt;
        tie = o.tie;
        sent = o.sent;
        dropped = o.dropped;
    }

    /** A deep, independent copy (for checkpoints): operations on either never affect the other. */
    public Core copy() {
        return new Core(this);
    }

    /** Where this core's fates come from: the seeded fault model or a fault plan. */
    public FateSource fates() {
        return fault;
    }

    /** The TCP stream model this core owns (copied with it; its instants count towards {@link #vt}). */
    public TcpNetwork tcp() {
        return tcp;
    }

    /** Creates an empty queue for conn unless it has one (an existing queue is kept untouched). */
    public void connect(long conn) {
        int slot = queues.insert(conn, 0);
        if (queues.objectValue(slot) == null) queues.setObject(slot, new ConnQueue());
    }

    /** bound[a] = conn, replacing any previous owner; conn need not be connected. */
    public void bind(long conn, VAddr a) {
        bound.setLong(bound.insert(pack(a), 0), conn);
    }

    /**
     * Sends payload from src to dst at send_vt. Every send takes the channel's next chan_seq; the fault
     * check comes before the receiver lookup; only an enqueueing send consumes a tie and may raise vt.
     */
    public SendResult send(VAddr src, VAddr dst, byte[] payload, long sendVt) {
        return send(src, dst, payload.length, keepsPayloads ? payload.clone() : NO_BYTES, sendVt);
    }

    /**
     * {@link #send} of the payload whose lowercase hex is {@code lowerHex} (see {@link HexPayload#lowercaseOrNull}):
     * replay's form, kept as it is until something asks for the bytes, so a datagram that is only delivered is never
     * decoded or encoded again. Same outcome, chan_seq, tie and later delivery as {@code send} of the decoded bytes.
     */
    public SendResult sendHex(VAddr src, VAddr dst, String lowerHex, long sendVt) {
        return send(src, dst, lowerHex.length() >> 1, keepsPayloads ? lowerHex : "", sendVt);
    }

    /** {@code kept}: what the queue holds (byte[] or lowercase hex, see {@link ConnQueue}), length in bytes. */
    private SendResult send(VAddr src, VAddr dst, int length, Object kept, long sendVt) {
        sent++;
        long packedSrc = pack(src);
        long packedDst = pack(dst);
        int seqSlot = seq.insert(packedSrc, packedDst);
        long chanSeq = seq.longValue(seqSlot);
        seq.setLong(seqSlot, chanSeq + 1);

        FaultModel.Fate fate = fault.fate(src, dst, chanSeq, length);
        if (fate.dropped()) {
            dropped++;
            return new SendResult(chanSeq, SendOutcome.DROPPED);
        }
        int ownerSlot = bound.find(packedDst, 0);
        if (ownerSlot < 0) return new SendResult(chanSeq, SendOutcome.NO_RECEIVER);
        long owner = bound.longValue(ownerSlot);
        long deliv = Unsigned.saturatingAdd(sendVt, fate.delayNs());
        long t = tie++;
        vt = Unsigned.max(vt, deliv);
        int queueSlot = queues.find(owner, 0);
        // A bound but unconnected owner silently loses the datagram; the outcome is still Enqueued.
        if (queueSlot >= 0) {
            ((ConnQueue) queues.objectValue(queueSlot)).push(deliv, t, src, dst, kept);
        }
        return new SendResult(chanSeq, new SendOutcome.Enqueued(owner, deliv, t));
    }

    /** Pops conn's minimum (deliv, tie) datagram; Empty if conn has no queue or it is empty. Never changes vt. */
    public RecvOutcome recv(long conn) {
        ConnQueue q = queue(conn);
        if (q == null || q.size() == 0) return RecvOutcome.EMPTY;
        return pop(q);
    }

    /** Like recv, but only if the minimum's deliv is below horizon (unsigned); otherwise Empty without popping. */
    public RecvOutcome recvBefore(long conn, long horizon) {
        ConnQueue q = queue(conn);
        if (q == null || q.size() == 0 || Long.compareUnsigned(q.minDeliv(), horizon) >= 0) return RecvOutcome.EMPTY;
        return pop(q);
    }

    /** The datagram recv(conn) would deliver next, or null if conn has no queue or it is empty. */
    public PendingDatagram peek(long conn) {
        ConnQueue q = queue(conn);
        if (q == null || q.size() == 0) return null;
        return new PendingDatagram(q.minDeliv(), q.minTie(), q.minSrc(), q.minDst(), q.minPayload());
    }

    /** True if conn currently has a queue (connected and not disconnected since). */
    public boolean hasQueue(long conn) {
        return queue(conn) != null;
    }

    /** Number of datagrams pending for conn (0 if it has no queue). */
    public int queueLength(long conn) {
        ConnQueue q = queue(conn);
        return q == null ? 0 : q.size();
    }

    /** Removes conn's queue (its datagrams are lost) and every binding it owns, TCP ones included. */
    public void disconnect(long conn) {
        tcp.release(conn);
        int slot = queues.find(conn, 0);
        if (slot >= 0) queues.removeAt(slot);
        List<Long> owned = new ArrayList<>();
        for (int s = 0; s < bound.capacity(); s++) {
            if (bound.isUsed(s) && bound.longValue(s) == conn) owned.add(bound.key1(s));
        }
        for (long key : owned) bound.removeAt(bound.find(key, 0));
    }

    /** High-water mark of scheduled delivery times (ns, u64), datagrams' and TCP streams' alike. */
    public long vt() {
        return Unsigned.max(vt, tcp.highWater());
    }

    /** The next tie value (= number of enqueueing sends so far). */
    public long tie() {
        return tie;
    }

    public long sent() {
        return sent;
    }

    public long dropped() {
        return dropped;
    }

    /** An immutable sorted picture of the whole state. */
    public CoreState snapshot() {
        SortedMap<Long, List<PendingDatagram>> qs = new TreeMap<>(Long::compareUnsigned);
        for (int s = 0; s < queues.capacity(); s++) {
            if (!queues.isUsed(s)) continue;
            ConnQueue q = (ConnQueue) queues.objectValue(s);
            List<PendingDatagram> items = new ArrayList<>(q.size());
            for (int i = 0; i < q.size(); i++) {
                items.add(new PendingDatagram(q.deliv(i), q.tie(i), q.src(i), q.dst(i), q.payload(i)));
            }
            items.sort(QUEUE_ORDER);
            qs.put(queues.key1(s), items);
        }
        SortedMap<VAddr, Long> bindings = new TreeMap<>();
        for (int s = 0; s < bound.capacity(); s++) {
            if (bound.isUsed(s)) bindings.put(unpack(bound.key1(s)), bound.longValue(s));
        }
        SortedMap<Channel, Long> chans = new TreeMap<>();
        for (int s = 0; s < seq.capacity(); s++) {
            if (seq.isUsed(s)) chans.put(new Channel(unpack(seq.key1(s)), unpack(seq.key2(s))), seq.longValue(s));
        }
        return new CoreState(vt(), tie, sent, dropped, qs, bindings, chans, tcp.snapshot());
    }

    private ConnQueue queue(long conn) {
        int slot = queues.find(conn, 0);
        return slot < 0 ? null : (ConnQueue) queues.objectValue(slot);
    }

    private static RecvOutcome pop(ConnQueue q) {
        RecvOutcome.Delivered d = new RecvOutcome.Delivered(q.minSrc(), q.minDst(),
                q.minDeliv(), q.minTie(), q.minPayloadHex());
        q.removeMin();
        return d;
    }

    private static long pack(VAddr a) {
        return (a.ip() << 16) | a.port();
    }

    private static VAddr unpack(long packed) {
        return new VAddr(packed >>> 16, (int) (packed & 0xFFFF));
    }
}
