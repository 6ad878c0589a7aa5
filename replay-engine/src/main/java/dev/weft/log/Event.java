package dev.weft.log;

import java.util.Objects;

/**
 * One event of a weft-log record ({@code "e"} member), as specified in weft-log-v2.md §5.
 * All u64 fields are held in {@code long} and must be treated as unsigned.
 * Payloads are kept as the hex string of the log, verbatim (case preserved).
 *
 * <p>The records here and in {@link SendOutcome}/{@link RecvOutcome} and {@link VAddr} write out {@code equals} and
 * {@code hashCode} (the component-wise meaning a record's generated ones have): replay compares every replayed event
 * with the recorded one, and the generated methods are bootstrapped at run time through invokedynamic, building
 * some 80 hidden classes on the first comparisons that no class-data-sharing archive can keep, a measurable part of
 * a short {@code weft replay}. {@code RecordEqualityTest} checks each one against its components by reflection.
 */
public sealed interface Event {

    /** The tag value written as member {@code k}. */
    String kind();

    /** The connection this event belongs to, or -1 (as "none") for violation and end. */
    default long connOrNone() {
        return this instanceof OnConnection c ? c.conn() : -1;
    }

    /** The events that belong to a connection (all but violation and end); each record's {@code conn} is it. */
    interface OnConnection {
        long conn();
    }

    /**
     * Whether this event is a broker operation (connect … disconnect, and the TCP records): what the core applies,
     * invariants see and per-connection views show. Violation, end, ext and signal records are annotations about the
     * run, not operations; every place that must skip them asks here (the one home of that rule).
     */
    default boolean isBrokerOperation() {
        // Not derived from connOrNone(): a conn is a u64 and may look negative in a long.
        return !(this instanceof Violation || this instanceof End || this instanceof Ext || this instanceof Signal);
    }

    /** Whether this is one of the TCP stream records (docs/tcp.md), which a log may hold only after its tcp ext record. */
    default boolean isTcp() {
        return this instanceof TcpRecord;
    }

    /** The TCP stream records ({@code tcp_*}, docs/weft-log-format.md "TCP streams"). */
    interface TcpRecord {
    }

    // The records with at most one component have trivial members, written one to a line.

    record Connect(long conn) implements Event, OnConnection {
        public String kind() { return "connect"; }
        @Override public boolean equals(Object other) { return other instanceof Connect o && conn == o.conn; }
        @Override public int hashCode() { return Long.hashCode(conn); }
    }

    /** A connection announcing which node it is; node is a u32. */
    record Hello(long conn, long node) implements Event, OnConnection {
        public String kind() { return "hello"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Hello o && conn == o.conn && node == o.node;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(node));
        }
    }

    record Bind(long conn, VAddr addr) implements Event, OnConnection {
        public String kind() { return "bind"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Bind o && conn == o.conn && Objects.equals(addr, o.addr);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Objects.hashCode(addr));
        }
    }

    record Send(long conn, VAddr src, VAddr dst, long chanSeq, long sendVt, String payload, SendOutcome outcome)
            implements Event, OnConnection {
        public String kind() { return "send"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Send o && conn == o.conn && chanSeq == o.chanSeq && sendVt == o.sendVt
                    && Objects.equals(src, o.src) && Objects.equals(dst, o.dst)
                    && Objects.equals(payload, o.payload) && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Objects.hashCode(src), Objects.hashCode(dst),
                    Long.hashCode(chanSeq), Long.hashCode(sendVt), Objects.hashCode(payload), Objects.hashCode(outcome));
        }
    }

    record Recv(long conn, boolean blocking, RecvOutcome outcome) implements Event, OnConnection {
        public String kind() { return "recv"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Recv o && conn == o.conn && blocking == o.blocking
                    && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Boolean.hashCode(blocking), Objects.hashCode(outcome));
        }
    }

    record Disconnect(long conn) implements Event, OnConnection {
        public String kind() { return "disconnect"; }
        @Override public boolean equals(Object other) { return other instanceof Disconnect o && conn == o.conn; }
        @Override public int hashCode() { return Long.hashCode(conn); }
    }

    record Violation(String invariant, String message) implements Event {
        public String kind() { return "violation"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Violation o && Objects.equals(invariant, o.invariant)
                    && Objects.equals(message, o.message);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Objects.hashCode(invariant), Objects.hashCode(message));
        }
    }

    /** events = records in the log including this one; sent/dropped = send records before it. */
    record End(long events, long sent, long dropped) implements Event {
        public String kind() { return "end"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof End o && events == o.events && sent == o.sent && dropped == o.dropped;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(events), Long.hashCode(sent), Long.hashCode(dropped));
        }
    }

    // ------------------------------------------------------------------ extensions (docs/weft-log-format.md)

    /**
     * Announces a format extension before its first record: {@code {"k":"ext","name":"tcp","version":1}} precedes the
     * first TCP record (the header is written before any socket exists, and a UDP-only log must stay as it is).
     */
    record Ext(String name, long version) implements Event {
        public static final String TCP = "tcp";
        public static final long TCP_VERSION = 1;

        public String kind() { return "ext"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Ext o && version == o.version && Objects.equals(name, o.name);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Objects.hashCode(name), Long.hashCode(version));
        }
    }

    /** A TCP socket bound to addr (an ephemeral port already resolved). */
    record TcpBind(long conn, VAddr addr) implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_bind"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpBind o && conn == o.conn && Objects.equals(addr, o.addr);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Objects.hashCode(addr));
        }
    }

    /** backlog is a u32 (recorded as the program asked; the model does not limit the accept queue). */
    record TcpListen(long conn, long backlog) implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_listen"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpListen o && conn == o.conn && backlog == o.backlog;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(backlog));
        }
    }

    /** A connect; a non-blocking one records {@code pending} and its end later as {@link TcpEstablished}. */
    record TcpConnect(long conn, long sid, VAddr src, VAddr dst, long sendVt, TcpConnectOutcome outcome)
            implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_connect"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpConnect o && conn == o.conn && sid == o.sid && sendVt == o.sendVt
                    && Objects.equals(src, o.src) && Objects.equals(dst, o.dst) && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(sid), Objects.hashCode(src), Objects.hashCode(dst),
                    Long.hashCode(sendVt), Objects.hashCode(outcome));
        }
    }

    /** The end of a non-blocking connect, recorded when the broker first reports it (never {@code pending}). */
    record TcpEstablished(long conn, long sid, TcpConnectOutcome outcome) implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_established"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpEstablished o && conn == o.conn && sid == o.sid
                    && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(sid), Objects.hashCode(outcome));
        }
    }

    record TcpAccept(long conn, boolean blocking, TcpAcceptOutcome outcome) implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_accept"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpAccept o && conn == o.conn && blocking == o.blocking
                    && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Boolean.hashCode(blocking), Objects.hashCode(outcome));
        }
    }

    /** The broker connection conn takes over the server end of accepted stream sid. */
    record TcpAdopt(long conn, long sid) implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_adopt"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpAdopt o && conn == o.conn && sid == o.sid;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(sid));
        }
    }

    /** A write: payload is the accepted bytes in hex (empty unless the outcome is a segment). */
    record TcpSend(long conn, long sid, long offset, long sendVt, String payload, TcpSendOutcome outcome)
            implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_send"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpSend o && conn == o.conn && sid == o.sid && offset == o.offset
                    && sendVt == o.sendVt && Objects.equals(payload, o.payload) && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(sid), Long.hashCode(offset), Long.hashCode(sendVt),
                    Objects.hashCode(payload), Objects.hashCode(outcome));
        }
    }

    /** A read of at most max (u32) bytes; peek leaves them unread. */
    record TcpRecv(long conn, long sid, long max, boolean peek, boolean blocking, TcpRecvOutcome outcome)
            implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_recv"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpRecv o && conn == o.conn && sid == o.sid && max == o.max && peek == o.peek
                    && blocking == o.blocking && Objects.equals(outcome, o.outcome);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(sid), Long.hashCode(max), Boolean.hashCode(peek),
                    Boolean.hashCode(blocking), Objects.hashCode(outcome));
        }
    }

    /** how: {@code rd}, {@code wr} or {@code rdwr}. */
    record TcpShutdown(long conn, long sid, String how) implements Event, OnConnection, TcpRecord {
        public static final String RD = "rd", WR = "wr", RDWR = "rdwr";

        public String kind() { return "tcp_shutdown"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpShutdown o && conn == o.conn && sid == o.sid && Objects.equals(how, o.how);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(sid), Objects.hashCode(how));
        }
    }

    /** The last close of a stream's socket; reset: the close resets the peer (unread bytes, or after an abort). */
    record TcpClose(long conn, long sid, boolean reset) implements Event, OnConnection, TcpRecord {
        public String kind() { return "tcp_close"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpClose o && conn == o.conn && sid == o.sid && reset == o.reset;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(conn), Long.hashCode(sid), Boolean.hashCode(reset));
        }
    }

    /**
     * Both ends of stream sid reset at atNs (visible to reads whose horizon reaches it); reason: {@code crash} (a
     * node crashed), {@code stall} (cut longer than the stall timeout) or {@code abort}.
     */
    record TcpReset(long sid, String reason, long atNs) implements Event, TcpRecord {
        public static final String CRASH = "crash", STALL = "stall", ABORT = "abort";

        public String kind() { return "tcp_reset"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpReset o && sid == o.sid && atNs == o.atNs && Objects.equals(reason, o.reason);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(sid), Objects.hashCode(reason), Long.hashCode(atNs));
        }
    }

    /**
     * From virtual time atNs on, the scenario partition spec (the net spec's partition syntax, {@code "0+1|2"}; empty:
     * healed) cuts streams; an extension of this branch (docs/tcp.md): streams stall, so a cut is a replay input.
     */
    record TcpPartition(long atNs, String spec) implements Event, TcpRecord {
        public String kind() { return "tcp_partition"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof TcpPartition o && atNs == o.atNs && Objects.equals(spec, o.spec);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(atNs), Objects.hashCode(spec));
        }
    }

    /** A signal the run sent to a node (node u32; signal {@code SIGTERM}/{@code SIGKILL}; reason {@code end_when_exited}). */
    record Signal(long node, String signal, String reason) implements Event {
        public String kind() { return "signal"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Signal o && node == o.node && Objects.equals(signal, o.signal)
                    && Objects.equals(reason, o.reason);
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(node), Objects.hashCode(signal), Objects.hashCode(reason));
        }
    }
}
