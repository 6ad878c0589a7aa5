package dev.weft.tcp;

import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.TcpRecvOutcome;
import dev.weft.log.TcpSendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FateSource;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import dev.weft.net.Unsigned;
import dev.weft.text.Hex;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The simulated TCP streams of a run (docs/tcp.md): the one entry to the stream model, owned by the
 * {@link dev.weft.core.Core} ({@code core.tcp()}) and copied with it. Single-threaded and deterministic: its inputs
 * are the operations below, in the order the broker applies them, and the {@link FateSource} (the seeded fault model or a plan).
 *
 * <p>Identities. A {@code conn} is the broker connection of one simulated socket (as for datagrams); a stream
 * {@code sid} is numbered 0, 1, … in connect order, failed connects included. Side 0 of a stream is the connector,
 * side 1 the acceptor; direction d carries what side d writes. Addresses are the resolved ones (the broker turns
 * {@code INADDR_ANY} into the node's address before calling). TCP ports are a namespace of their own, apart from the
 * datagram bindings.
 *
 * <p>Time. Instants are u64 virtual ns. A {@code horizon} says up to which instant the caller may see arrivals
 * (inclusive): the windowed broker passes the instant the answer holds at, the single-host broker {@link #ALL}
 * (everything scheduled counts as arrived, as a datagram recv pops its queue's minimum whatever its time). Nothing
 * here reads a clock: time moves only through {@code sendVt}, {@code horizon} and {@code atNs} arguments.
 *
 * <p>Errors. A refused operation throws {@link TcpException} and changes nothing; everything the log records
 * (closed, reset, full, empty, refused and timed-out connects) is an outcome, not an exception.
 */
public final class TcpNetwork {

    /** A horizon that sees every scheduled arrival (single-host runs and replay of outcomes that prove one). */
    public static final long ALL = -1L;
    /** "No such instant" in {@link Readiness#nextChangeNs()} and {@link #nextChangeAfter}. */
    public static final long NEVER = Flow.NEVER;

    /** Poll bits as the wire's TcpWait/Ready carry them (Linux values). */
    public static final int POLLIN = 0x1, POLLOUT = 0x4, POLLERR = 0x8, POLLHUP = 0x10, POLLRDHUP = 0x2000;

    /** {@link Status#state()} values, as the wire's Status message carries them. */
    public static final int CLOSED = 0, BOUND = 1, LISTENING = 2, CONNECTING = 3, ESTABLISHED = 4, PEER_CLOSED = 5,
            RESET = 6;

    /** First ephemeral port per node address (docs/tcp.md "Ports"). */
    public static final int FIRST_EPHEMERAL_PORT = 40000;

    /** A connect: the stream's sid, the connector's address (bound now if it was not) and how it ends. */
    public record ConnectResult(long sid, VAddr src, TcpConnectOutcome outcome) {
    }

    /**
     * A write: the stream, the offset of the accepted bytes in their direction, how many were accepted (0 unless
     * the outcome is a segment or stalled) and the outcome.
     */
    public record WriteResult(long sid, long offset, int accepted, TcpSendOutcome outcome) {
    }

    /** A read: the stream and what it returned. */
    public record ReadResult(long sid, TcpRecvOutcome outcome) {
    }

    /** A close of a stream's end: reset tells whether it resets the peer (else it is a FIN). */
    public record CloseResult(long sid, boolean reset) {
    }

    /** A stream the stall timeout resets, and the instant it does (its first stalled segment's cut + tcp_stall). */
    public record StallReset(long sid, long atNs) {
    }

    /**
     * Readiness at a horizon: the poll bits that hold ({@link #POLLIN} …) and the earliest instant after the horizon
     * at which they could change with time alone (an arrival, a handshake's end, a reset or stall deadline), or
     * {@link #NEVER} when only another operation can change them (a read making room, a connect, a close).
     */
    public record Readiness(int events, long nextChangeNs) {
    }

    /**
     * What TcpStatus reports: state ({@link #CLOSED} …), so_error (a Linux errno or 0), the local and peer addresses
     * (null when there are none), bytes delivered by the horizon and unread, and room in the peer's receive buffer.
     */
    public record Status(int state, int soError, VAddr local, VAddr peer, long unread, long room) {
    }

    private final SegmentTiming timing;
    private final TcpConfig config;
    private final PartitionSchedule partitions;
    private final TreeMap<Long, Socket> sockets;
    private final TreeMap<VAddr, Long> boundBy;
    private final TreeMap<Long, Integer> nextEphemeral;
    private final TreeMap<Long, Stream> streams;
    private long nextSid;
    private long highWater;
    private long clock;

    public TcpNetwork(FateSource fault, TcpConfig config) {
        this.timing = new SegmentTiming(fault);
        this.config = config;
        this.partitions = new PartitionSchedule(fault.spec().partition());
        this.sockets = new TreeMap<>(Long::compareUnsigned);
        this.boundBy = new TreeMap<>();
        this.nextEphemeral = new TreeMap<>();
        this.streams = new TreeMap<>(Long::compareUnsigned);
    }

    /** The model of the fault model's net spec (its {@code tcp_stall}, defaults otherwise). */
    public TcpNetwork(FateSource fault) {
        this(fault, TcpConfig.withStallTimeout(fault.spec().tcpStallNs()));
    }

    private TcpNetwork(TcpNetwork o) {
        timing = o.timing; // stateless
        config = o.config;
        partitions = o.partitions.copy();
        sockets = new TreeMap<>(Long::compareUnsigned);
        for (Map.Entry<Long, Socket> e : o.sockets.entrySet()) sockets.put(e.getKey(), e.getValue().copy());
        boundBy = new TreeMap<>(o.boundBy);
        nextEphemeral = new TreeMap<>(o.nextEphemeral);
        streams = new TreeMap<>(Long::compareUnsigned);
        for (Map.Entry<Long, Stream> e : o.streams.entrySet()) streams.put(e.getKey(), e.getValue().copy());
        nextSid = o.nextSid;
        highWater = o.highWater;
        clock = o.clock;
    }

    /** A deep, independent copy (checkpoints): operations on either never affect the other. */
    public TcpNetwork copy() {
        return new TcpNetwork(this);
    }

    public TcpConfig config() {
        return config;
    }

    /** The latest instant any stream event is scheduled at (the core's vt includes it); 0 before any. */
    public long highWater() {
        return highWater;
    }

    /** Whether any TCP socket or stream ever existed (a UDP-only run: false). */
    public boolean inUse() {
        return nextSid > 0 || !sockets.isEmpty();
    }

    // ------------------------------------------------------------------ sockets

    /**
     * Binds conn's socket to addr; port 0 takes the address's next free ephemeral port (40000, 40001, … per ip in
     * the order binds are applied, skipping ports in use). Returns the bound address.
     *
     * @throws TcpException EADDRINUSE when another socket holds addr (or no ephemeral port is free), EINVAL when conn
     *                      is already bound
     */
    public VAddr bind(long conn, VAddr addr) throws TcpException {
        Socket s = sockets.get(conn);
        if (s != null && s.local != null) throw new TcpException(TcpErrno.EINVAL, "socket already bound");
        VAddr at = addr.port() == 0 ? ephemeral(addr.ip()) : addr;
        if (boundBy.containsKey(at)) throw new TcpException(TcpErrno.EADDRINUSE, at.text() + " in use");
        if (s == null) {
            s = new Socket();
            sockets.put(conn, s);
        }
        s.local = at;
        boundBy.put(at, conn);
        return at;
    }

    private VAddr ephemeral(long ip) throws TcpException {
        int start = nextEphemeral.getOrDefault(ip, FIRST_EPHEMERAL_PORT);
        int port = start;
        do {
            VAddr a = new VAddr(ip, port);
            port = port == 0xFFFF ? FIRST_EPHEMERAL_PORT : port + 1;
            if (!boundBy.containsKey(a)) {
                nextEphemeral.put(ip, port);
                return a;
            }
        } while (port != start);
        throw new TcpException(TcpErrno.EADDRINUSE, "no free ephemeral port");
    }

    /**
     * Makes conn's bound socket a listener. Connects to its address from now on are accepted; backlog is kept for
     * the record and status but does not limit the accept queue (docs/tcp.md "Not modelled").
     *
     * @throws TcpException EINVAL when conn is not bound or is a stream end
     */
    public void listen(long conn, long backlog) throws TcpException {
        Socket s = sockets.get(conn);
        if (s == null || s.local == null) throw new TcpException(TcpErrno.EINVAL, "listen on an unbound socket");
        if (s.sid >= 0) throw new TcpException(TcpErrno.EINVAL, "listen on a connected socket");
        s.listening = true;
        s.backlog = backlog;
    }

    // ------------------------------------------------------------------ handshake

    /**
     * Connects conn's socket to dst at sendVt, binding it first to an ephemeral port of localIp if it is unbound.
     * The stream takes the next sid whatever the outcome, which is decided now, for blocking and non-blocking
     * connects alike (a non-blocking one learns it through {@link #readiness}/{@link #status} once its instant is
     * within the horizon, and the log records {@code pending}, then {@link #connectOutcome}):
     * <ul>
     * <li>{@code timed_out} at sendVt + the SYN timeout when a partition cuts the two nodes at sendVt;
     * <li>{@code refused} at sendVt + one SYN flight when nothing listens at dst;
     * <li>else {@code established}: the SYN arrives at sendVt + its flight (the listener may accept it from then on)
     *     and the connector sees est_ns = that + the SYN-ACK's flight. Flights are drawn like data segments (index 0
     *     of each direction), losses adding retransmission back-off.
     * </ul>
     *
     * @throws TcpException EISCONN when conn is already an established stream end, EINVAL for a listener
     */
    public ConnectResult connect(long conn, long localIp, VAddr dst, long sendVt) throws TcpException {
        Socket s = sockets.get(conn);
        if (s != null && s.listening) throw new TcpException(TcpErrno.EINVAL, "connect on a listening socket");
        if (s != null && s.sid >= 0 && streams.get(s.sid).established()) {
            throw new TcpException(TcpErrno.EISCONN, "socket already connected (sid " + Long.toUnsignedString(s.sid) + ")");
        }
        VAddr src = s != null && s.local != null ? s.local : bind(conn, new VAddr(localIp, 0));
        s = sockets.get(conn);
        long sid = nextSid++;
        noteClock(sendVt);
        Stream st;
        if (partitions.cut(src.nodeOf(), dst.nodeOf(), sendVt)) {
            long at = Unsigned.saturatingAdd(sendVt, config.synTimeoutNs());
            st = new Stream(sid, src, dst, conn, Stream.NO_CONN, new TcpConnectOutcome.TimedOut(at), NEVER, NEVER);
            raise(at);
        } else {
            long syn = Unsigned.saturatingAdd(sendVt, timing.flight(sid, src, dst, 0, 0).delay());
            Long listenerConn = boundBy.get(dst);
            Socket listener = listenerConn == null ? null : sockets.get(listenerConn);
            if (listener == null || !listener.listening) {
                st = new Stream(sid, src, dst, conn, Stream.NO_CONN, new TcpConnectOutcome.Refused(syn), NEVER, NEVER);
                raise(syn);
            } else {
                long est = Unsigned.saturatingAdd(syn, timing.flight(sid, dst, src, 1, 0).delay());
                st = new Stream(sid, src, dst, conn, listenerConn, new TcpConnectOutcome.Established(est), syn, est);
                insertPending(listener, st);
                raise(est);
            }
        }
        streams.put(sid, st);
        s.sid = sid;
        s.side = 0;
        return new ConnectResult(sid, src, st.outcome);
    }

    /** How conn's connect ended (for the {@code tcp_established} record of a non-blocking connect). */
    public TcpConnectOutcome connectOutcome(long conn) throws TcpException {
        Stream st = streamOf(conn);
        if (endSide(conn) != 0) throw new TcpException(TcpErrno.EINVAL, "not a connecting socket");
        return st.outcome;
    }

    private void insertPending(Socket listener, Stream st) {
        int i = listener.pending.size();
        while (i > 0) {
            Stream before = streams.get(listener.pending.get(i - 1));
            long b = before == null ? 0 : before.synNs;
            if (Long.compareUnsigned(b, st.synNs) <= 0) break;
            i--;
        }
        listener.pending.add(i, st.sid);
    }

    /**
     * Accepts on listener conn the pending stream whose SYN arrived first (ties: lower sid) if it arrived by horizon;
     * else {@code empty}. The accepted stream's acceptor end belongs to no socket until {@link #adopt}.
     *
     * @throws TcpException EINVAL when conn is not listening
     */
    public TcpAcceptOutcome accept(long conn, long horizon) throws TcpException {
        Socket s = sockets.get(conn);
        if (s == null || !s.listening) throw new TcpException(TcpErrno.EINVAL, "accept on a socket that does not listen");
        if (s.pending.isEmpty()) return TcpAcceptOutcome.EMPTY;
        Stream st = streams.get(s.pending.get(0));
        if (!Flow.arrived(st.synNs, horizon)) return TcpAcceptOutcome.EMPTY;
        s.pending.remove(0);
        st.accepted = true;
        return new TcpAcceptOutcome.Accepted(st.sid, st.connector, st.acceptor, st.synNs);
    }

    /**
     * Makes conn (the broker connection the shim opened for an accepted socket) the acceptor end of stream sid.
     *
     * @throws TcpException EINVAL when sid is unknown, not accepted yet, or already adopted, or conn is in use
     */
    public void adopt(long conn, long sid) throws TcpException {
        Stream st = streams.get(sid);
        if (st == null || !st.accepted || st.acceptorConn != Stream.NO_CONN) {
            throw new TcpException(TcpErrno.EINVAL, "sid " + Long.toUnsignedString(sid) + " is not an accepted stream awaiting adoption");
        }
        if (sockets.containsKey(conn)) throw new TcpException(TcpErrno.EINVAL, "connection already has a socket");
        Socket s = new Socket();
        s.sid = sid;
        s.side = 1;
        sockets.put(conn, s);
        st.acceptorConn = conn;
    }

    // ------------------------------------------------------------------ data

    /**
     * Writes bytes from conn's end at sendVt. The peer's receive buffer bounds the bytes in flight plus unread in
     * this direction: the write takes what fits (back-pressure), as one segment of the accepted bytes, delivered at
     * {@code max(previous segment's delivery, serialised send + latency + retransmission back-off)}, so segments never
     * overtake. Outcomes: {@code segment} (accepted ≥ 1, or an empty write), {@code stalled} (accepted, a partition
     * holds it or an earlier segment), {@code full} (nothing fits; a blocking writer waits for the reader),
     * {@code reset} (the stream was reset, or the peer has closed its end: EPIPE/ECONNRESET), {@code closed} (this end
     * shut down writing, or the connect failed).
     *
     * @throws TcpException ENOTCONN when conn is no stream end
     */
    public WriteResult write(long conn, byte[] bytes, long sendVt) throws TcpException {
        return writeOwned(conn, bytes.clone(), sendVt);
    }

    /**
     * {@link #write} of the bytes whose hex (either case) is given: replay's form.
     *
     * @throws IllegalArgumentException when hex is not pairs of hex digits
     */
    public WriteResult writeHex(long conn, String hex, long sendVt) throws TcpException {
        byte[] bytes = Hex.decode(hex);
        if (bytes == null) throw new IllegalArgumentException("payload is not valid hex");
        return writeOwned(conn, bytes, sendVt);
    }

    /** {@code bytes}: no longer changed by the caller (kept as the segment's payload). */
    private WriteResult writeOwned(long conn, byte[] bytes, long sendVt) throws TcpException {
        Stream st = streamOf(conn);
        int side = endSide(conn);
        Flow out = st.out(side);
        noteClock(sendVt);
        if (!st.established()) return new WriteResult(st.sid, out.written, 0, TcpSendOutcome.CLOSED);
        if (st.isReset() || st.closed[1 - side]) return new WriteResult(st.sid, out.written, 0, TcpSendOutcome.RESET);
        if (st.closed[side] || out.finDeliv != NEVER) return new WriteResult(st.sid, out.written, 0, TcpSendOutcome.CLOSED);
        long room = config.receiveBuffer() - out.outstanding();
        if (room <= 0 && bytes.length > 0) return new WriteResult(st.sid, out.written, 0, TcpSendOutcome.FULL);
        int n = (int) Math.min(bytes.length, room);
        byte[] kept = n == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, n);
        long offset = out.written;
        Flow.Segment seg = new Flow.Segment(offset, kept, sendVt, out.nextIndex++, Flow.STALLED, 0);
        out.segments.add(seg);
        out.written += n;
        int dir = side;
        if (out.hasStalled()) {
            return new WriteResult(st.sid, offset, n, TcpSendOutcome.STALLED);
        }
        if (partitions.cut(st.local(side).nodeOf(), st.peer(side).nodeOf(), sendVt)) {
            out.stalledSince = sendVt;
            out.resumeFloor = out.lastDeliv;
            out.lastDeliv = Flow.STALLED;
            resolve(st, dir);
            if (seg.delivNs == Flow.STALLED) return new WriteResult(st.sid, offset, n, TcpSendOutcome.STALLED);
            return new WriteResult(st.sid, offset, n, new TcpSendOutcome.Segment(seg.delivNs, seg.retransmits));
        }
        schedule(st, dir, seg, sendVt);
        return new WriteResult(st.sid, offset, n, new TcpSendOutcome.Segment(seg.delivNs, seg.retransmits));
    }

    /** Gives seg its delivery time, as sent at sendVt (its own send, or a heal). */
    private void schedule(Stream st, int dir, Flow.Segment seg, long sendVt) {
        raise(timing.schedule(st, dir, st.flows[dir], seg, sendVt));
    }

    /**
     * Reads up to max bytes at conn's end: the bytes delivered by horizon, from the read point on, across segments
     * ({@code data}, its {@code deliv_ns} the delivery of the last segment it takes from); peek leaves them unread.
     * Without such bytes: {@code reset} once the stream's reset instant is within the horizon (bytes delivered before
     * a reset stay readable first), {@code eof} once the peer's FIN arrived and every byte before it was read (or
     * this end shut down reading), else {@code empty} (a blocking reader waits; {@link #readiness} says until when).
     *
     * @throws TcpException ENOTCONN when conn is no stream end or its connect failed
     */
    public ReadResult read(long conn, long max, boolean peek, long horizon) throws TcpException {
        Stream st = streamOf(conn);
        int side = endSide(conn);
        if (!st.established()) throw new TcpException(TcpErrno.ENOTCONN, "stream never connected");
        Flow in = st.in(side);
        if (st.readShut[side]) return new ReadResult(st.sid, TcpRecvOutcome.EOF);
        long visible = st.isReset() ? Unsigned.min(horizon, st.resetAt) : horizon;
        long limit = Math.min(max, Integer.MAX_VALUE);
        byte[] buf = null;
        int n = 0;
        long lastDeliv = 0;
        for (Flow.Segment seg : in.segments) {
            if (n >= limit || !Flow.arrived(seg.delivNs, visible)) break;
            int from = (int) (Math.max(seg.offset, in.consumed + n) - seg.offset);
            int take = (int) Math.min(seg.bytes.length - from, limit - n);
            if (take <= 0) continue;
            if (buf == null) {
                buf = new byte[(int) Math.min(limit, Math.max(take, 4096))];
            } else if (n + take > buf.length) {
                buf = java.util.Arrays.copyOf(buf, (int) Math.min(limit, Math.max(n + take, 2L * buf.length)));
            }
            System.arraycopy(seg.bytes, from, buf, n, take);
            n += take;
            lastDeliv = seg.delivNs;
        }
        if (n > 0) {
            long offset = in.consumed;
            if (!peek) consume(in, n);
            String hex = Hex.encodeLower(n == buf.length ? buf : java.util.Arrays.copyOf(buf, n));
            return new ReadResult(st.sid, new TcpRecvOutcome.Data(offset, lastDeliv, hex));
        }
        if (st.resetBy(horizon)) return new ReadResult(st.sid, TcpRecvOutcome.RESET);
        if (in.atEof(horizon)) return new ReadResult(st.sid, TcpRecvOutcome.EOF);
        return new ReadResult(st.sid, TcpRecvOutcome.EMPTY);
    }

    private static void consume(Flow in, long n) {
        in.consumed += n;
        while (!in.segments.isEmpty() && in.segments.peekFirst().end() <= in.consumed) in.segments.pollFirst();
    }

    // ------------------------------------------------------------------ ends

    /**
     * Shuts down conn's end: {@code wr} sends the FIN (it arrives with the last segment written; later writes are
     * {@code closed}), {@code rd} makes reads return EOF, {@code rdwr} both. Returns the sid.
     *
     * @throws TcpException ENOTCONN when conn is no established stream end
     */
    public long shutdown(long conn, boolean read, boolean write) throws TcpException {
        Stream st = streamOf(conn);
        int side = endSide(conn);
        if (!st.established()) throw new TcpException(TcpErrno.ENOTCONN, "stream never connected");
        if (read) st.readShut[side] = true;
        if (write) sendFin(st, side);
        return st.sid;
    }

    private void sendFin(Stream st, int side) {
        Flow out = st.out(side);
        if (out.finDeliv != NEVER) return;
        out.finDeliv = out.hasStalled() ? Flow.STALLED : out.lastDeliv;
        if (out.finDeliv != Flow.STALLED) raise(out.finDeliv);
    }

    /** Marks conn's end aborted ({@code SO_LINGER {1,0}}): its close will reset the peer rather than FIN. */
    public void abort(long conn) throws TcpException {
        Stream st = streamOf(conn);
        st.aborted[endSide(conn)] = true;
    }

    /**
     * Closes conn's stream end (the broker saw the socket's last fd close). A reset when this end was aborted or
     * bytes the peer wrote were never read here (in flight ones included); else a FIN after the last segment. Either
     * takes effect at the peer at the delivery of this end's last segment (the handshake's instant if it wrote none).
     * Returns null when conn is no stream end (a listener or a bare socket: {@link #release} tidies those) or the
     * end is already closed.
     */
    public CloseResult close(long conn) {
        Socket s = sockets.get(conn);
        if (s == null || s.sid < 0) return null;
        Stream st = streams.get(s.sid);
        int side = s.side;
        if (st.closed[side]) return null;
        st.closed[side] = true;
        if (!st.established() || st.isReset()) return new CloseResult(st.sid, false);
        boolean reset = st.aborted[side] || st.in(side).outstanding() > 0;
        if (reset) {
            Flow out = st.out(side);
            resetStream(st, out.hasStalled() ? out.stalledSince : out.lastDeliv);
        } else {
            sendFin(st, side);
        }
        return new CloseResult(st.sid, reset);
    }

    /**
     * Everything conn held goes (its broker connection ended): its stream end is closed as by {@link #close} if it
     * was not, its binding is freed, and a listener's streams not yet accepted are reset (at their SYN's arrival).
     */
    public void release(long conn) {
        close(conn);
        Socket s = sockets.remove(conn);
        if (s == null) return;
        if (s.local != null && Long.valueOf(conn).equals(boundBy.get(s.local))) boundBy.remove(s.local);
        if (s.listening) {
            for (long sid : s.pending) {
                Stream st = streams.get(sid);
                if (!st.isReset()) resetStream(st, st.synNs);
            }
        }
    }

    // ------------------------------------------------------------------ the network

    /**
     * A node crashed at atNs: every established stream with an end on it that is not reset yet is reset at atNs (its
     * peers read ECONNRESET once their horizon reaches atNs). Returns the sids, ascending; the broker records one
     * {@code tcp_reset} (reason {@code crash}) per sid, and replay applies each with {@link #reset}.
     */
    public List<Long> crashNode(long node, long atNs) {
        List<Long> out = new ArrayList<>();
        for (Stream st : streams.values()) {
            if (!st.established() || st.isReset()) continue;
            if (st.connector.nodeOf() == node || st.acceptor.nodeOf() == node) out.add(st.sid);
        }
        for (long sid : out) resetStream(streams.get(sid), atNs);
        noteClock(atNs);
        return out;
    }

    /**
     * Resets both ends of stream sid at atNs (a {@code tcp_reset} record: crash, stall or abort). Nothing happens when
     * it is already reset.
     *
     * @throws TcpException EINVAL when sid is unknown
     */
    public void reset(long sid, long atNs) throws TcpException {
        Stream st = streams.get(sid);
        if (st == null) throw new TcpException(TcpErrno.EINVAL, "no stream " + Long.toUnsignedString(sid));
        if (!st.isReset()) resetStream(st, atNs);
    }

    private void resetStream(Stream st, long atNs) {
        st.resetAt = atNs;
        raise(atNs);
    }

    /**
     * From atNs on the scenario partition is spec (the net spec's partition syntax, {@code "0+1|2"}; empty: healed),
     * replacing the one in force (the net spec's own partition holds for the whole run regardless). A segment is cut
     * when a partition separates its nodes at its send: it stalls (with every later segment of its direction) until
     * the heal, then goes as if sent at the heal; segments already scheduled are not affected. A stream that stays cut
     * longer than the stall timeout is reset instead (see {@link #stallResetsDue}). Changes may arrive in any order of
     * atNs; deliveries are decided once a heal is known.
     *
     * @throws NetSpecException when spec is not a partition
     */
    public void partitionAt(long atNs, String spec) throws NetSpecException {
        List<List<Long>> groups = spec.isBlank() ? List.of() : NetSpec.parse("partition=" + spec).partition();
        partitions.add(atNs, groups);
        noteClock(atNs);
        for (Stream st : streams.values()) {
            if (st.isReset()) continue;
            for (int dir = 0; dir < 2; dir++) {
                if (st.flows[dir].hasStalled()) resolve(st, dir);
            }
        }
    }

    /**
     * The streams the stall timeout resets by horizon: a direction still cut at its first stalled segment's cut +
     * tcp_stall (no heal known by then). Ascending sid; the broker calls {@link #reset} for each (at its instant) and
     * records {@code tcp_reset} (reason {@code stall}).
     */
    public List<StallReset> stallResetsDue(long horizon) {
        List<StallReset> out = new ArrayList<>();
        for (Stream st : streams.values()) {
            long deadline = stallDeadline(st);
            if (deadline != NEVER && Flow.arrived(deadline, horizon)) out.add(new StallReset(st.sid, deadline));
        }
        return out;
    }

    /** The instant stream sid's stall timeout resets it, or {@link #NEVER} when it is not stalled (or already reset). */
    public long stallDeadline(long sid) {
        Stream st = streams.get(sid);
        return st == null ? NEVER : stallDeadline(st);
    }

    private long stallDeadline(Stream st) {
        if (st.isReset()) return NEVER;
        long d = NEVER;
        for (Flow f : st.flows) {
            if (f.hasStalled()) d = Unsigned.min(d, Unsigned.saturatingAdd(f.stalledSince, config.stallTimeoutNs()));
        }
        return d;
    }

    /** Decides the stalled segments of direction dir whose heal is known and within the stall timeout. */
    private void resolve(Stream st, int dir) {
        Flow f = st.flows[dir];
        long a = st.local(dir).nodeOf();
        long b = st.peer(dir).nodeOf();
        while (f.hasStalled()) {
            long heal = partitions.healAfter(a, b, f.stalledSince);
            if (heal == NEVER || Long.compareUnsigned(heal - f.stalledSince, config.stallTimeoutNs()) > 0) return;
            // the last delivery before the stall (the handshake's if none) is the floor of the resumed ones
            f.lastDeliv = f.resumeFloor;
            f.stalledSince = NEVER;
            for (Flow.Segment seg : f.segments) {
                if (seg.delivNs != Flow.STALLED) continue;
                if (f.hasStalled()) break;
                long t = Unsigned.max(seg.sendVt, heal);
                if (partitions.cut(a, b, t)) {
                    f.stalledSince = t;
                    f.resumeFloor = f.lastDeliv;
                    f.lastDeliv = Flow.STALLED;
                    break;
                }
                schedule(st, dir, seg, t);
            }
            if (!f.hasStalled() && f.finDeliv == Flow.STALLED) {
                f.finDeliv = f.lastDeliv;
                raise(f.finDeliv);
            }
        }
    }

    // ------------------------------------------------------------------ queries

    /**
     * The poll bits of conn at horizon and the next instant they could change (see {@link Readiness}). IN: data, EOF,
     * reset, a pending accept, a finished connect that failed; OUT: room in the peer's buffer on an established end,
     * a finished connect; ERR and HUP with a reset or a failed connect; RDHUP once the peer's FIN arrived. A socket
     * that is neither listener nor stream end has none.
     */
    public Readiness readiness(long conn, long horizon) {
        Socket s = sockets.get(conn);
        if (s == null) return new Readiness(0, NEVER);
        if (s.listening) {
            if (s.pending.isEmpty()) return new Readiness(0, NEVER);
            long syn = streams.get(s.pending.get(0)).synNs;
            return Flow.arrived(syn, horizon) ? new Readiness(POLLIN, NEVER) : new Readiness(0, syn);
        }
        if (s.sid < 0) return new Readiness(0, NEVER);
        Stream st = streams.get(s.sid);
        int side = s.side;
        if (side == 0) {
            long end = st.connectEndNs();
            if (!Flow.arrived(end, horizon)) return new Readiness(0, end);
            if (!st.established()) return new Readiness(POLLIN | POLLOUT | POLLERR | POLLHUP, NEVER);
        }
        Flow in = st.in(side);
        Flow out = st.out(side);
        int ev = 0;
        long next = NEVER;
        long visible = st.isReset() ? Unsigned.min(horizon, st.resetAt) : horizon;
        if (in.hasDeliveredUnread(visible) || st.readShut[side]) ev |= POLLIN;
        if (st.resetBy(horizon)) {
            ev |= POLLIN | POLLOUT | POLLERR | POLLHUP;
        } else {
            if (Flow.arrived(in.finDeliv, horizon)) {
                ev |= POLLIN | POLLRDHUP;
                if (out.finDeliv != NEVER) ev |= POLLHUP;
            }
            if (out.finDeliv == NEVER && !st.closed[side] && out.outstanding() < config.receiveBuffer()) ev |= POLLOUT;
            if (st.isReset()) next = st.resetAt;
            next = Unsigned.min(next, in.nextArrivalAfter(visible));
            next = Unsigned.min(next, stallDeadline(st));
        }
        return new Readiness(ev, next);
    }

    /** TcpStatus of conn at horizon (see {@link Status}); an unknown conn is CLOSED with nothing. */
    public Status status(long conn, long horizon) {
        Socket s = sockets.get(conn);
        if (s == null) return new Status(CLOSED, 0, null, null, 0, 0);
        if (s.listening) return new Status(LISTENING, 0, s.local, null, 0, 0);
        if (s.sid < 0) return new Status(s.local == null ? CLOSED : BOUND, 0, s.local, null, 0, 0);
        Stream st = streams.get(s.sid);
        int side = s.side;
        VAddr local = st.local(side);
        VAddr peer = st.peer(side);
        if (side == 0 && !Flow.arrived(st.connectEndNs(), horizon)) return new Status(CONNECTING, 0, local, peer, 0, 0);
        if (st.outcome instanceof TcpConnectOutcome.Refused) {
            return new Status(CLOSED, TcpErrno.ECONNREFUSED.linux(), local, peer, 0, 0);
        }
        if (st.outcome instanceof TcpConnectOutcome.TimedOut) {
            return new Status(CLOSED, TcpErrno.ETIMEDOUT.linux(), local, peer, 0, 0);
        }
        Flow in = st.in(side);
        long visible = st.isReset() ? Unsigned.min(horizon, st.resetAt) : horizon;
        long unread = in.deliveredUnread(visible);
        long room = Math.max(0, config.receiveBuffer() - st.out(side).outstanding());
        if (st.resetBy(horizon)) return new Status(RESET, TcpErrno.ECONNRESET.linux(), local, peer, unread, 0);
        int state = Flow.arrived(in.finDeliv, horizon) ? PEER_CLOSED : ESTABLISHED;
        return new Status(state, 0, local, peer, unread, room);
    }

    /**
     * The earliest instant after horizon at which anything in the stream model changes with time alone (an arrival of
     * a SYN, a segment or a FIN, a handshake's end, a reset, a stall deadline), or {@link #NEVER}: with NEVER and
     * every node waiting, only a new operation could move the run (the deadlock verdict's "nothing scheduled").
     */
    public long nextChangeAfter(long horizon) {
        long next = NEVER;
        for (Stream st : streams.values()) {
            next = earliestAfter(next, st.synNs, horizon);
            next = earliestAfter(next, st.connectEndNs(), horizon);
            next = earliestAfter(next, st.resetAt, horizon);
            if (st.isReset()) continue;
            for (Flow f : st.flows) next = Unsigned.min(next, f.nextArrivalAfter(horizon));
            next = earliestAfter(next, stallDeadline(st), horizon);
        }
        return next;
    }

    private static long earliestAfter(long best, long instant, long horizon) {
        if (instant == NEVER || instant == Flow.STALLED || Long.compareUnsigned(instant, horizon) <= 0) return best;
        return Unsigned.min(best, instant);
    }

    /**
     * What conn is, for the deadlock verdict's line: {@code sid N}, {@code listener A:P} or {@code socket}.
     */
    public String endpointText(long conn) {
        Socket s = sockets.get(conn);
        if (s == null) return "socket";
        if (s.listening) return "listener " + s.local.text();
        if (s.sid >= 0) return "sid " + Long.toUnsignedString(s.sid);
        return "socket";
    }

    /**
     * The outcome a write at conn would get at sendVt if it accepts nothing ({@code full}, {@code reset} or
     * {@code closed}), or null when some bytes would fit. Changes nothing (replay checks a recorded refusal with it).
     *
     * @throws TcpException ENOTCONN when conn is no stream end
     */
    public TcpSendOutcome refusal(long conn, long sendVt) throws TcpException {
        Stream st = streamOf(conn);
        int side = endSide(conn);
        Flow out = st.out(side);
        if (!st.established()) return TcpSendOutcome.CLOSED;
        if (st.isReset() || st.closed[1 - side]) return TcpSendOutcome.RESET;
        if (st.closed[side] || out.finDeliv != NEVER) return TcpSendOutcome.CLOSED;
        return out.outstanding() >= config.receiveBuffer() ? TcpSendOutcome.FULL : null;
    }

    /** The offset the next byte conn writes will have, or 0 when conn is no stream end. */
    public long writeOffset(long conn) {
        Socket s = sockets.get(conn);
        return s == null || s.sid < 0 ? 0 : streams.get(s.sid).out(s.side).written;
    }

    /** When the peer's FIN reaches conn's end ({@link #NEVER} when none is sent, or while it is stalled). */
    public long finArrival(long conn) {
        Socket s = sockets.get(conn);
        if (s == null || s.sid < 0) return NEVER;
        long fin = streams.get(s.sid).in(s.side).finDeliv;
        return fin == Flow.STALLED ? NEVER : fin;
    }

    /** When conn's stream is reset ({@link #NEVER} when it is not). */
    public long resetInstant(long conn) {
        Socket s = sockets.get(conn);
        return s == null || s.sid < 0 ? NEVER : streams.get(s.sid).resetAt;
    }

    /** The sid of conn's stream end, or -1 when conn is none. */
    public long sidOf(long conn) {
        Socket s = sockets.get(conn);
        return s == null ? -1 : s.sid;
    }

    /**
     * A sorted picture of every listener and stream for {@code weft state} (docs/tcp.md "State"): byte counts as of
     * the latest instant an operation named (a send, a partition or reset instant), in flight meaning written and not
     * yet delivered by then.
     */
    public TcpState snapshot() {
        return TcpSnapshots.of(sockets, streams.values(), clock);
    }

    // ------------------------------------------------------------------ internals

    private Stream streamOf(long conn) throws TcpException {
        Socket s = sockets.get(conn);
        if (s == null || s.sid < 0) throw new TcpException(TcpErrno.ENOTCONN, "not a connected socket");
        return streams.get(s.sid);
    }

    private int endSide(long conn) {
        return sockets.get(conn).side;
    }

    private void raise(long instant) {
        if (instant != NEVER && instant != Flow.STALLED) highWater = Unsigned.max(highWater, instant);
    }

    private void noteClock(long instant) {
        clock = Unsigned.max(clock, instant);
    }
}
