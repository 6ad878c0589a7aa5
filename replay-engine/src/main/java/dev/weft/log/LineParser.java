package dev.weft.log;

import dev.weft.json.JsonCursor;
import dev.weft.json.JsonLineException;
import dev.weft.json.JsonMembers;
import dev.weft.json.JsonNames;

/**
 * The weft-log line schema (weft-log-v2.md §2-§6) over {@link JsonCursor}, the line layer of the byte-level JSON
 * tokenizer, with {@link JsonMembers} keeping each object's member names: which members a header, a record, each
 * event variant, each outcome and an address have, in which order writers emit them, which are integers (and their
 * ranges), strings, addresses or tagged objects, and how the values become a {@link LogHeader} or an {@link Event}.
 * The shapes are the tables below, described once; the JSON itself (white space, escapes, numbers, duplicate and
 * unknown members, recursion limit) is the tokenizer's. It accepts exactly
 * what the reference reader accepts. One instance is reused for every line of a log (not thread-safe).
 */
final class LineParser {

    private static final long U32_MAX = 0xFFFF_FFFFL;
    private static final long U16_MAX = 0xFFFFL;
    private static final long U64_MAX = -1L;

    private static final JsonNames RECORD_KEYS = new JsonNames("op", "vt", "e", "chain");
    private static final int R_OP = 0, R_VT = 1, R_E = 2, R_CHAIN = 3;
    private static final int[] RECORD_ORDER = {R_OP, R_VT, R_E, R_CHAIN};

    private static final JsonNames EVENT_KEYS = new JsonNames("k", "conn", "node", "addr", "src", "dst", "chan_seq",
            "send_vt", "payload", "outcome", "blocking", "invariant", "message", "events", "sent", "dropped",
            // the TCP extension's and the signal record's (docs/weft-log-format.md)
            "name", "version", "sid", "backlog", "offset", "max", "peek", "how", "reset", "reason", "at_ns", "spec",
            "signal");
    private static final int E_K = 0, E_CONN = 1, E_NODE = 2, E_ADDR = 3, E_SRC = 4, E_DST = 5, E_CHAN_SEQ = 6,
            E_SEND_VT = 7, E_PAYLOAD = 8, E_OUTCOME = 9, E_BLOCKING = 10, E_INVARIANT = 11, E_MESSAGE = 12,
            E_EVENTS = 13, E_SENT = 14, E_DROPPED = 15, E_NAME = 16, E_VERSION = 17, E_SID = 18, E_BACKLOG = 19,
            E_OFFSET = 20, E_MAX = 21, E_PEEK = 22, E_HOW = 23, E_RESET = 24, E_REASON = 25, E_AT_NS = 26,
            E_SPEC = 27, E_SIGNAL = 28;

    /** Event members whose value is an integer, an address, a boolean (bit sets of E_*). */
    private static final int EVENT_INTEGERS = 1 << E_CONN | 1 << E_NODE | 1 << E_CHAN_SEQ | 1 << E_SEND_VT
            | 1 << E_EVENTS | 1 << E_SENT | 1 << E_DROPPED | 1 << E_VERSION | 1 << E_SID | 1 << E_BACKLOG
            | 1 << E_OFFSET | 1 << E_MAX | 1 << E_AT_NS;
    /** The integer members that are u32 (the rest are u64). */
    private static final int EVENT_U32 = 1 << E_NODE | 1 << E_VERSION | 1 << E_BACKLOG | 1 << E_MAX;
    private static final int EVENT_ADDRESSES = 1 << E_ADDR | 1 << E_SRC | 1 << E_DST;
    private static final int EVENT_BOOLEANS = 1 << E_BLOCKING | 1 << E_PEEK | 1 << E_RESET;

    private static final JsonNames EVENT_TAGS = new JsonNames("connect", "hello", "bind", "send", "recv", "disconnect",
            "violation", "end", "ext", "tcp_bind", "tcp_listen", "tcp_connect", "tcp_established", "tcp_accept",
            "tcp_adopt", "tcp_send", "tcp_recv", "tcp_shutdown", "tcp_close", "tcp_reset", "tcp_partition", "signal");
    private static final int T_CONNECT = 0, T_HELLO = 1, T_BIND = 2, T_SEND = 3, T_RECV = 4, T_DISCONNECT = 5,
            T_VIOLATION = 6, T_END = 7, T_EXT = 8, T_TCP_BIND = 9, T_TCP_LISTEN = 10, T_TCP_CONNECT = 11,
            T_TCP_ESTABLISHED = 12, T_TCP_ACCEPT = 13, T_TCP_ADOPT = 14, T_TCP_SEND = 15, T_TCP_RECV = 16,
            T_TCP_SHUTDOWN = 17, T_TCP_CLOSE = 18, T_TCP_RESET = 19, T_TCP_PARTITION = 20, T_SIGNAL = 21;

    /** Members of each event variant, in written order (the first missing one is reported). */
    private static final int[][] EVENT_MEMBERS = {
            {E_CONN},
            {E_CONN, E_NODE},
            {E_CONN, E_ADDR},
            {E_CONN, E_SRC, E_DST, E_CHAN_SEQ, E_SEND_VT, E_PAYLOAD, E_OUTCOME},
            {E_CONN, E_BLOCKING, E_OUTCOME},
            {E_CONN},
            {E_INVARIANT, E_MESSAGE},
            {E_EVENTS, E_SENT, E_DROPPED},
            {E_NAME, E_VERSION},
            {E_CONN, E_ADDR},
            {E_CONN, E_BACKLOG},
            {E_CONN, E_SID, E_SRC, E_DST, E_SEND_VT, E_OUTCOME},
            {E_CONN, E_SID, E_OUTCOME},
            {E_CONN, E_BLOCKING, E_OUTCOME},
            {E_CONN, E_SID},
            {E_CONN, E_SID, E_OFFSET, E_SEND_VT, E_PAYLOAD, E_OUTCOME},
            {E_CONN, E_SID, E_MAX, E_PEEK, E_BLOCKING, E_OUTCOME},
            {E_CONN, E_SID, E_HOW},
            {E_CONN, E_SID, E_RESET},
            {E_SID, E_REASON, E_AT_NS},
            {E_AT_NS, E_SPEC},
            {E_NODE, E_SIGNAL, E_REASON},
    };
    /** Canonical member order of each event variant: the tag first, then the members. */
    private static final int[][] EVENT_ORDER = new int[EVENT_MEMBERS.length][];
    private static final int[] EVENT_ALLOWED = new int[EVENT_MEMBERS.length];
    private static final int[] EVENT_REQUIRED = new int[EVENT_MEMBERS.length];

    static {
        for (int t = 0; t < EVENT_MEMBERS.length; t++) {
            EVENT_ORDER[t] = tagThen(E_K, EVENT_MEMBERS[t]);
            EVENT_ALLOWED[t] = bits(EVENT_MEMBERS[t]);
            // a datagram send's send_vt is optional on read (missing => 0); every TCP member is required
            EVENT_REQUIRED[t] = t == T_SEND ? EVENT_ALLOWED[t] & ~(1 << E_SEND_VT) : EVENT_ALLOWED[t];
        }
    }

    /** The written order of a tagged object's members: the tag, then the variant's members. */
    private static int[] tagThen(int tag, int[] members) {
        int[] order = new int[members.length + 1];
        order[0] = tag;
        System.arraycopy(members, 0, order, 1, members.length);
        return order;
    }

    /** Member indices as a bit set. */
    private static int bits(int[] members) {
        int bits = 0;
        for (int m : members) {
            bits |= 1 << m;
        }
        return bits;
    }

    private static final JsonNames OUTCOME_KEYS = new JsonNames("kind", "to_conn", "deliv_ns", "tie", "src", "dst", "payload",
            "est_ns", "at_ns", "sid", "syn_ns", "retransmits", "offset");
    private static final int O_KIND = 0, O_TO_CONN = 1, O_DELIV_NS = 2, O_TIE = 3, O_SRC = 4, O_DST = 5, O_PAYLOAD = 6,
            O_EST_NS = 7, O_AT_NS = 8, O_SID = 9, O_SYN_NS = 10, O_RETRANSMITS = 11, O_OFFSET = 12;

    /**
     * The shape of a send or recv event's outcome: its variants by tag, those without members first (their values
     * in {@code units}), then the one with members, named {@code variant}, whose members are {@code members}
     * ({@code allowed} as bits), written in {@code order} after the tag.
     */
    private record OutcomeShape(String what, JsonNames tags, Object[] units, String variant, int[] members,
            int[] order, int allowed) {
        OutcomeShape(String what, JsonNames tags, Object[] units, String variant, int... members) {
            this(what, tags, units, variant, members, tagThen(O_KIND, members), bits(members));
        }
    }

    private static final OutcomeShape SEND_OUTCOME = new OutcomeShape("send outcome",
            new JsonNames("dropped", "no_receiver", "enqueued"),
            new Object[] {SendOutcome.DROPPED, SendOutcome.NO_RECEIVER},
            "enqueued outcome", O_TO_CONN, O_DELIV_NS, O_TIE);
    private static final OutcomeShape RECV_OUTCOME = new OutcomeShape("recv outcome",
            new JsonNames("empty", "delivered"), new Object[] {RecvOutcome.EMPTY},
            "delivered outcome", O_SRC, O_DST, O_DELIV_NS, O_TIE, O_PAYLOAD);

    /**
     * The shape of a TCP record's outcome: its variants by tag, and each variant's members in written order (none for
     * the unit variants).
     */
    private record TcpOutcomeShape(String what, JsonNames tags, int[][] members, int[][] order, int[] allowed) {
        TcpOutcomeShape(String what, JsonNames tags, int[]... members) {
            this(what, tags, members, orders(members), allowedBits(members));
        }

        private static int[][] orders(int[][] members) {
            int[][] o = new int[members.length][];
            for (int i = 0; i < members.length; i++) o[i] = tagThen(O_KIND, members[i]);
            return o;
        }

        private static int[] allowedBits(int[][] members) {
            int[] a = new int[members.length];
            for (int i = 0; i < members.length; i++) a[i] = bits(members[i]);
            return a;
        }
    }

    private static final TcpOutcomeShape CONNECT_OUTCOME = new TcpOutcomeShape("tcp connect outcome",
            new JsonNames("established", "refused", "timed_out", "pending"),
            new int[] {O_EST_NS}, new int[] {O_AT_NS}, new int[] {O_AT_NS}, new int[] {});
    private static final TcpOutcomeShape ACCEPT_OUTCOME = new TcpOutcomeShape("tcp accept outcome",
            new JsonNames("accepted", "empty"), new int[] {O_SID, O_SRC, O_DST, O_SYN_NS}, new int[] {});
    private static final TcpOutcomeShape TCP_SEND_OUTCOME = new TcpOutcomeShape("tcp send outcome",
            new JsonNames("segment", "stalled", "full", "reset", "closed"),
            new int[] {O_DELIV_NS, O_RETRANSMITS}, new int[] {}, new int[] {}, new int[] {}, new int[] {});
    private static final TcpOutcomeShape TCP_RECV_OUTCOME = new TcpOutcomeShape("tcp recv outcome",
            new JsonNames("data", "eof", "reset", "empty"),
            new int[] {O_OFFSET, O_DELIV_NS, O_PAYLOAD}, new int[] {}, new int[] {}, new int[] {});

    private static final JsonNames ADDR_KEYS = new JsonNames("ip", "port");
    private static final int[] ADDR_ORDER = {0, 1};
    private static final JsonNames TAG_KEY = new JsonNames("k");
    private static final JsonNames KIND_KEY = new JsonNames("kind");

    private static final JsonNames HEADER_KEYS = new JsonNames("format", "version", "seed", "net", "window_ns", "meta");
    private static final JsonNames META_KEYS = new JsonNames("recorded_unix_ms", "weft_version", "label", "hosts",
            "plan");

    /** The tokenizer this schema drives, one line at a time. */
    private final JsonCursor c = new JsonCursor();
    /** The member names of each object shape being read (reused: the shapes nest, but never in themselves). */
    private final JsonMembers recordMembers = new JsonMembers(c, RECORD_KEYS);
    private final JsonMembers eventMembers = new JsonMembers(c, EVENT_KEYS);
    private final JsonMembers outcomeMembers = new JsonMembers(c, OUTCOME_KEYS);
    private final JsonMembers addressMembers = new JsonMembers(c, ADDR_KEYS);
    private final JsonMembers headerMembers = new JsonMembers(c, HEADER_KEYS);
    private final JsonMembers metaMembers = new JsonMembers(c, META_KEYS);

    // Results of record(): the parsed values and where the chain string is.
    long op;
    long vt;
    Event event;
    /** Offset of the chain string's bytes in the line when it had no escapes, else -1 (see chainText). */
    int chainOff;
    int chainLen;
    String chainText;
    /**
     * Set while parsing when the line is so far exactly the reference writer's compact form (no whitespace,
     * canonical member order, no unknown members, no escapes). Then canon(op, vt, e) is the line up to the
     * comma before "chain", plus '}', and needs no re-serialization.
     */
    private int chainComma;
    /** End (exclusive) of the canonical prefix of the last record line, or -1 when it must be re-serialized. */
    int canonPrefixEnd;

    // ---------------------------------------------------------------- records

    /** Parses a record line into {@link #op}, {@link #vt}, {@link #event} and the chain fields. */
    void record(byte[] buf, int off, int len) throws JsonLineException {
        c.start(buf, off, len); // compact until seen otherwise: leading white space already counts
        long op = 0;
        long vt = 0;
        Event e = null;
        chainOff = -1;
        chainText = null;
        chainComma = -1;
        JsonMembers members = recordMembers.begin(RECORD_ORDER, "record");
        for (boolean more = c.openObject("a record must be a JSON object"); more; more = c.nextMember("record")) {
            int keyAt = c.pos();
            int id = members.next();
            switch (id) {
                case R_OP -> op = c.integer("op", U64_MAX);
                case R_VT -> vt = c.integer("vt", U64_MAX);
                case R_E -> e = event();
                case R_CHAIN -> {
                    chainComma = keyAt - 1;
                    chain();
                }
                default -> c.skipIgnored();
            }
        }
        members.end();
        c.endOfTopLevelObject(members.seen(), RECORD_KEYS, "record");
        this.op = op;
        this.vt = vt;
        this.event = e;
        canonPrefixEnd = c.compact() ? chainComma : -1;
    }

    private void chain() throws JsonLineException {
        if (c.peek() != '"') {
            throw c.err("expected a string for \"chain\"");
        }
        int close = c.plainStringEnd();
        if (close >= 0) {
            chainOff = c.pos() + 1;
            chainLen = close - chainOff;
            c.seek(close + 1);
        } else {
            chainText = c.string("chain");
        }
    }

    // Scratch for the members of the event being read, by member index (events do not nest; send_vt, the one
    // optional member, is reset per event, every other member of a variant is required and so written before use).
    private final long[] eventInts = new long[EVENT_KEYS.size()];
    private final VAddr[] eventAddrs = new VAddr[EVENT_KEYS.size()];
    private final String[] eventTexts = new String[EVENT_KEYS.size()];

    private Event event() throws JsonLineException {
        int start = c.pos();
        int tag = findTag(TAG_KEY, EVENT_TAGS, "event");
        int allowed = EVENT_ALLOWED[tag];
        JsonMembers members = eventMembers.begin(EVENT_ORDER[tag], "event");
        long[] n = eventInts;
        VAddr[] a = eventAddrs;
        String[] text = eventTexts;
        n[E_SEND_VT] = 0; // the one optional member
        Object outcome = null;
        int bools = 0;
        for (boolean more = afterTag(members, start, E_K, "event", "an event must be a JSON object"); more;
                more = c.nextMember("event")) {
            int id = members.next();
            if (id >= 0 && (allowed & (1 << id)) == 0) {
                id = -1; // another variant's member: unknown here, ignored
            }
            // One call site per kind of value (not one per member) keeps this hot method small, so the JIT
            // compiles it sooner and at less cost; the routing below only stores the value.
            if (id < 0) {
                c.skipValue(2);
            } else if (((EVENT_INTEGERS >>> id) & 1) != 0) {
                n[id] = c.integer(EVENT_KEYS.name(id), ((EVENT_U32 >>> id) & 1) != 0 ? U32_MAX : U64_MAX);
            } else if (((EVENT_ADDRESSES >>> id) & 1) != 0) {
                a[id] = address(EVENT_KEYS.name(id));
            } else if (id == E_OUTCOME) {
                outcome = tag <= T_RECV ? outcome(tag == T_SEND ? SEND_OUTCOME : RECV_OUTCOME) : tcpOutcome(tag);
            } else if (((EVENT_BOOLEANS >>> id) & 1) != 0) {
                if (c.bool(EVENT_KEYS.name(id))) bools |= 1 << id;
            } else { // the string members: payload, invariant, message, name, how, reason, spec, signal
                text[id] = c.string(EVENT_KEYS.name(id));
            }
        }
        members.end(); // e.g. send_vt absent: canon inserts it
        int lacking = EVENT_REQUIRED[tag] & ~members.seen();
        if (lacking != 0) {
            for (int m : EVENT_MEMBERS[tag]) {
                if ((lacking & (1 << m)) != 0) {
                    throw c.missing(EVENT_KEYS.name(m), EVENT_TAGS.name(tag) + " event");
                }
            }
        }
        return switch (tag) {
            case T_CONNECT -> new Event.Connect(n[E_CONN]);
            case T_HELLO -> new Event.Hello(n[E_CONN], n[E_NODE]);
            case T_BIND -> new Event.Bind(n[E_CONN], a[E_ADDR]);
            case T_SEND -> new Event.Send(n[E_CONN], a[E_SRC], a[E_DST], n[E_CHAN_SEQ], n[E_SEND_VT], text[E_PAYLOAD],
                    (SendOutcome) outcome);
            case T_RECV -> new Event.Recv(n[E_CONN], (bools & 1 << E_BLOCKING) != 0, (RecvOutcome) outcome);
            case T_DISCONNECT -> new Event.Disconnect(n[E_CONN]);
            case T_VIOLATION -> new Event.Violation(text[E_INVARIANT], text[E_MESSAGE]);
            case T_END -> new Event.End(n[E_EVENTS], n[E_SENT], n[E_DROPPED]);
            default -> extensionEvent(tag, n, a, text, bools, outcome);
        };
    }

    /** The ext, TCP and signal records, built from the members event() read (kept apart so event() stays small). */
    private Event extensionEvent(int tag, long[] n, VAddr[] a, String[] text, int bools, Object outcome)
            throws JsonLineException {
        return switch (tag) {
            case T_EXT -> new Event.Ext(text[E_NAME], n[E_VERSION]);
            case T_TCP_BIND -> new Event.TcpBind(n[E_CONN], a[E_ADDR]);
            case T_TCP_LISTEN -> new Event.TcpListen(n[E_CONN], n[E_BACKLOG]);
            case T_TCP_CONNECT -> new Event.TcpConnect(n[E_CONN], n[E_SID], a[E_SRC], a[E_DST], n[E_SEND_VT],
                    (TcpConnectOutcome) outcome);
            case T_TCP_ESTABLISHED -> {
                if (outcome instanceof TcpConnectOutcome.Pending) {
                    throw new JsonLineException("a tcp_established outcome cannot be \"pending\"", false);
                }
                yield new Event.TcpEstablished(n[E_CONN], n[E_SID], (TcpConnectOutcome) outcome);
            }
            case T_TCP_ACCEPT -> new Event.TcpAccept(n[E_CONN], (bools & 1 << E_BLOCKING) != 0,
                    (TcpAcceptOutcome) outcome);
            case T_TCP_ADOPT -> new Event.TcpAdopt(n[E_CONN], n[E_SID]);
            case T_TCP_SEND -> new Event.TcpSend(n[E_CONN], n[E_SID], n[E_OFFSET], n[E_SEND_VT], text[E_PAYLOAD],
                    (TcpSendOutcome) outcome);
            case T_TCP_RECV -> new Event.TcpRecv(n[E_CONN], n[E_SID], n[E_MAX], (bools & 1 << E_PEEK) != 0,
                    (bools & 1 << E_BLOCKING) != 0, (TcpRecvOutcome) outcome);
            case T_TCP_SHUTDOWN -> {
                String how = text[E_HOW];
                if (!how.equals("rd") && !how.equals("wr") && !how.equals("rdwr")) {
                    throw new JsonLineException("tcp_shutdown \"how\" must be \"rd\", \"wr\" or \"rdwr\", not "
                            + dev.weft.text.RustText.debugQuote(how), false);
                }
                yield new Event.TcpShutdown(n[E_CONN], n[E_SID], how);
            }
            case T_TCP_CLOSE -> new Event.TcpClose(n[E_CONN], n[E_SID], (bools & 1 << E_RESET) != 0);
            case T_TCP_RESET -> new Event.TcpReset(n[E_SID], text[E_REASON], n[E_AT_NS]);
            case T_TCP_PARTITION -> new Event.TcpPartition(n[E_AT_NS], text[E_SPEC]);
            default -> new Event.Signal(n[E_NODE], text[E_SIGNAL], text[E_REASON]);
        };
    }

    /** A TCP record's outcome, by the record's tag. */
    private Object tcpOutcome(int eventTag) throws JsonLineException {
        TcpOutcomeShape shape = switch (eventTag) {
            case T_TCP_CONNECT, T_TCP_ESTABLISHED -> CONNECT_OUTCOME;
            case T_TCP_ACCEPT -> ACCEPT_OUTCOME;
            case T_TCP_SEND -> TCP_SEND_OUTCOME;
            default -> TCP_RECV_OUTCOME;
        };
        int start = c.pos();
        int tag = findTag(KIND_KEY, shape.tags(), shape.what());
        int[] members = shape.members()[tag];
        long[] v = outcomeInts;
        if (members.length == 0) {
            finishUnitObject(start, shape.what());
        } else {
            outcomeValues(start, shape.tags().name(tag) + " outcome", shape.allowed()[tag], shape.order()[tag],
                    members);
        }
        if (shape == CONNECT_OUTCOME) {
            return switch (tag) {
                case 0 -> new TcpConnectOutcome.Established(v[O_EST_NS]);
                case 1 -> new TcpConnectOutcome.Refused(v[O_AT_NS]);
                case 2 -> new TcpConnectOutcome.TimedOut(v[O_AT_NS]);
                default -> TcpConnectOutcome.PENDING;
            };
        }
        if (shape == ACCEPT_OUTCOME) {
            return tag == 0 ? new TcpAcceptOutcome.Accepted(v[O_SID], outcomeAddrs[O_SRC], outcomeAddrs[O_DST], v[O_SYN_NS])
                    : TcpAcceptOutcome.EMPTY;
        }
        if (shape == TCP_SEND_OUTCOME) {
            return switch (tag) {
                case 0 -> new TcpSendOutcome.Segment(v[O_DELIV_NS], v[O_RETRANSMITS]);
                case 1 -> TcpSendOutcome.STALLED;
                case 2 -> TcpSendOutcome.FULL;
                case 3 -> TcpSendOutcome.RESET;
                default -> TcpSendOutcome.CLOSED;
            };
        }
        return switch (tag) {
            case 0 -> new TcpRecvOutcome.Data(v[O_OFFSET], v[O_DELIV_NS], outcomePayload);
            case 1 -> TcpRecvOutcome.EOF;
            case 2 -> TcpRecvOutcome.RESET;
            default -> TcpRecvOutcome.EMPTY;
        };
    }

    /** A send or recv event's outcome (a {@link SendOutcome} or a {@link RecvOutcome}, as {@code shape} says). */
    private Object outcome(OutcomeShape shape) throws JsonLineException {
        int start = c.pos();
        int tag = findTag(KIND_KEY, shape.tags(), shape.what());
        if (tag < shape.units().length) {
            finishUnitObject(start, shape.what());
            return shape.units()[tag];
        }
        long[] v = outcomeValues(start, shape);
        return shape == SEND_OUTCOME ? new SendOutcome.Enqueued(v[O_TO_CONN], v[O_DELIV_NS], v[O_TIE])
                : new RecvOutcome.Delivered(outcomeAddrs[O_SRC], outcomeAddrs[O_DST], v[O_DELIV_NS], v[O_TIE],
                        outcomePayload);
    }

    // Scratch for outcome parsing, by member index (outcomes do not nest, so one set suffices; every member of a
    // variant is required, so each is written before it is used).
    private final long[] outcomeInts = new long[OUTCOME_KEYS.size()];
    private final VAddr[] outcomeAddrs = new VAddr[OUTCOME_KEYS.size()];
    private String outcomePayload;

    /** Parses the outcome object with members whose tag is already known; other variants' members are ignored. */
    private long[] outcomeValues(int start, OutcomeShape shape) throws JsonLineException {
        return outcomeValues(start, shape.variant(), shape.allowed(), shape.order(), shape.members());
    }

    /**
     * Reads the members of the outcome variant {@code what} (the object at {@code start}, its tag already found):
     * those in {@code allowed} (bits) into the scratch arrays, the others skipped; each of {@code required} must be
     * there. Shared by the datagram and the TCP outcomes.
     */
    private long[] outcomeValues(int start, String what, int allowed, int[] order, int[] required)
            throws JsonLineException {
        long[] v = outcomeInts;
        JsonMembers names = outcomeMembers.begin(order, what);
        for (boolean more = afterTag(names, start, O_KIND, what, "an outcome must be a JSON object"); more;
                more = c.nextMember(what)) {
            int id = names.next();
            if (id >= 0 && (allowed & (1 << id)) == 0) {
                id = -1;
            }
            // As in event(): one call site per kind of value keeps the method small for the JIT.
            if (id < 0) {
                c.skipValue(4);
            } else if (id == O_SRC || id == O_DST) {
                outcomeAddrs[id] = address(OUTCOME_KEYS.name(id));
            } else if (id == O_PAYLOAD) {
                outcomePayload = c.string("payload");
            } else { // a u64 (kind is never an allowed member here)
                v[id] = c.integer(OUTCOME_KEYS.name(id), U64_MAX);
            }
        }
        for (int m : required) {
            if ((names.seen() & (1 << m)) == 0) {
                throw c.missing(OUTCOME_KEYS.name(m), what);
            }
        }
        names.end();
        return v;
    }

    /**
     * Reads on in the tagged object at {@code start} once {@link #findTag} knows its variant: just after the tag
     * member {@code tagId} if that came first (as writers emit it), else from the object's '{' again. True if a
     * member follows.
     */
    private boolean afterTag(JsonMembers members, int start, int tagId, String what, String notAnObject)
            throws JsonLineException {
        if (tagConsumed) {
            members.readFirst(tagId);
            return c.nextMember(what);
        }
        c.seek(start);
        return c.openObject(notAnObject);
    }

    /** An outcome variant without members: everything but the tag is unknown and skipped. */
    private void finishUnitObject(int start, String what) throws JsonLineException {
        if (tagConsumed && c.at('}')) {
            c.advance(); // the usual {"kind":"..."}
            return;
        }
        c.seek(start);
        c.expectAt('{', "expected an object");
        c.skip(KIND_KEY, what, 4);
    }

    private VAddr address(String field) throws JsonLineException {
        if (c.peek() != '{') {
            throw c.err("expected an address object for \"" + field + "\"");
        }
        JsonMembers members = addressMembers.begin(ADDR_ORDER, "address");
        long ip = 0;
        long port = 0;
        for (boolean more = c.enterObject(); more; more = c.nextMember("address")) {
            switch (members.next()) {
                case 0 -> ip = c.integer("ip", U32_MAX);
                case 1 -> port = c.integer("port", U16_MAX);
                default -> c.skipValue(5);
            }
        }
        if ((members.seen() & 1) == 0) {
            throw c.missing("ip", "address \"" + field + "\"");
        }
        if ((members.seen() & 2) == 0) {
            throw c.missing("port", "address \"" + field + "\"");
        }
        return addressOf(ip, (int) port);
    }

    // The last two distinct addresses parsed. A log talks about few addresses, mostly a src/dst pair, so
    // reusing these (VAddr is an immutable record: sharing one is indistinguishable from a copy) saves
    // two allocations per send or recv and lets the replay's equality checks succeed on identity.
    private VAddr recentAddr0;
    private VAddr recentAddr1;

    private VAddr addressOf(long ip, int port) {
        VAddr a = recentAddr0;
        if (a != null && a.ip() == ip && a.port() == port) {
            return a;
        }
        VAddr c = recentAddr1;
        if (c != null && c.ip() == ip && c.port() == port) {
            return c;
        }
        VAddr fresh = new VAddr(ip, port);
        recentAddr1 = a;
        recentAddr0 = fresh;
        return fresh;
    }

    /** Set by findTag: the tag was the first member and p now stands just after its value. */
    private boolean tagConsumed;

    /**
     * Finds the value of the tag member ({@code k} or {@code kind}) of the object at p. When the tag is the
     * first member (as writers emit it) it is consumed and {@link #tagConsumed} is set; otherwise the whole
     * object is scanned for it and p is left at the object's start.
     */
    private int findTag(JsonNames tagKey, JsonNames values, String what) throws JsonLineException {
        int start = c.pos();
        if (c.peek() != '{') {
            throw c.err("expected an object for the " + what);
        }
        if (c.enterObject() && c.peek() == '"' && c.key(tagKey, 0) == 0) {
            int tag = tagValue(values, tagKey.name(0), what);
            tagConsumed = true;
            return tag;
        }
        tagConsumed = false;
        // The tag is not first: scan every member (validating the JSON) to find it.
        c.seek(start);
        int tag = -1;
        for (boolean more = c.enterObject(); more; more = c.nextMember(what)) {
            if (c.key(tagKey, 0) != 0) {
                c.skipValue(3);
            } else if (tag >= 0) {
                throw c.duplicate(tagKey.name(0), what);
            } else {
                tag = tagValue(values, tagKey.name(0), what);
            }
        }
        if (tag < 0) {
            throw c.missing(tagKey.name(0), what);
        }
        c.seek(start);
        return tag;
    }

    private int tagValue(JsonNames values, String key, String what) throws JsonLineException {
        if (c.peek() != '"') {
            throw c.err("expected a string for \"" + key + "\" of the " + what);
        }
        int close = c.plainStringEnd();
        int found;
        String text;
        if (close >= 0) {
            int s = c.pos() + 1;
            found = values.find(c.bytes(), s, close - s);
            text = found >= 0 ? null : c.raw(s, close);
            c.seek(close + 1);
        } else {
            text = c.string(key);
            found = values.find(text);
        }
        if (found < 0) {
            throw new JsonLineException("unknown " + what + " kind " + dev.weft.text.RustText.debugQuote(text) + " (" + key + ") before column "
                    + c.column(), false);
        }
        return found;
    }

    // ---------------------------------------------------------------- header

    /** Parses line 1 (§3). Format and version are returned as read; the caller checks them (§9 order). */
    LogHeader header(byte[] buf, int off, int len, String rawLine) throws JsonLineException {
        c.start(buf, off, len);
        JsonMembers members = headerMembers.begin("header");
        String format = null, net = null;
        long version = 0, seed = 0, windowNs = 0;
        LogMeta meta = LogMeta.EMPTY;
        for (boolean more = c.openObject("the header must be a JSON object"); more; more = c.nextMember("header")) {
            switch (members.next()) {
                case 0 -> format = c.string("format");
                case 1 -> version = c.integer("version", U32_MAX);
                case 2 -> seed = c.integer("seed", U64_MAX);
                case 3 -> net = c.string("net");
                case 4 -> windowNs = c.integer("window_ns", U64_MAX);
                case 5 -> meta = meta();
                default -> c.skipIgnored();
            }
        }
        c.endOfTopLevelObject(members.seen(), HEADER_KEYS, "header");
        return new LogHeader(rawLine, format, version, seed, net, windowNs, meta);
    }

    private LogMeta meta() throws JsonLineException {
        if (c.peek() != '{') {
            throw c.err("\"meta\" must be an object");
        }
        JsonMembers members = metaMembers.begin("meta");
        Long recorded = null;
        String weftVersion = null, label = null, hosts = null, plan = null;
        for (boolean more = c.enterObject(); more; more = c.nextMember("meta")) {
            int id = members.next();
            boolean isNull = id >= 0 && c.literal("null");
            switch (id) {
                case 0 -> recorded = isNull ? null : c.integer("recorded_unix_ms", U64_MAX);
                case 1 -> weftVersion = isNull ? null : c.string("weft_version");
                case 2 -> label = isNull ? null : c.string("label");
                case 3 -> {
                    // ours, not the spec's: a foreign "hosts" of another type is ignored like any unknown member
                    if (!isNull && c.peek() == '"') {
                        hosts = c.string("hosts");
                    } else if (!isNull) {
                        c.skipIgnored();
                    }
                }
                case 4 -> {
                    // ours as well (docs/fault-plans.md); a foreign "plan" of another type is ignored
                    if (!isNull && c.peek() == '"') {
                        plan = c.string("plan");
                    } else if (!isNull) {
                        c.skipIgnored();
                    }
                }
                default -> c.skipIgnored();
            }
        }
        return new LogMeta(recorded, weftVersion, label, hosts, plan);
    }
}
