package dev.weft.log;

import dev.weft.json.JsonEscapes;
import dev.weft.json.Utf8;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A strict, allocation-light JSON parser for one weft-log line, working on bytes (weft-log-v2.md §2-§6).
 * It accepts exactly what the reference reader accepts: any whitespace and member order, any escapes,
 * unknown members (skipped, but still checked as JSON), and rejects duplicate members, non-integer or
 * out-of-range numbers for integer fields, lone surrogate escapes, control characters in strings,
 * trailing characters and invalid UTF-8. One instance is reused for every line of a log (not thread-safe).
 */
final class LineParser {

    private static final long U32_MAX = 0xFFFF_FFFFL;
    private static final long U16_MAX = 0xFFFFL;
    private static final long U64_MAX = -1L;
    private static final java.lang.invoke.VarHandle LONG_LE =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /** A fixed list of names (member names or tag values) with their UTF-8 bytes for fast matching. */
    private static final class Names {
        final String[] names;
        final byte[][] bytes;
        /** Each name followed by its closing quote, for the one-pass match of an expected member name. */
        final byte[][] quoted;
        /**
         * The 16 bytes {@code "name":} (padded) as two little-endian words with masks, so the expected
         * member name is recognised with two word compares; {@code wordLen} is its length (0 if over 16).
         */
        final long[] word0, mask0, word1, mask1;
        final int[] wordLen;

        Names(String... names) {
            this.names = names;
            this.bytes = new byte[names.length][];
            this.quoted = new byte[names.length][];
            for (int i = 0; i < names.length; i++) {
                bytes[i] = names[i].getBytes(StandardCharsets.UTF_8);
                quoted[i] = (names[i] + '"').getBytes(StandardCharsets.UTF_8);
            }
            word0 = new long[names.length];
            mask0 = new long[names.length];
            word1 = new long[names.length];
            mask1 = new long[names.length];
            wordLen = new int[names.length];
            for (int i = 0; i < names.length; i++) {
                byte[] full = ('"' + names[i] + "\":").getBytes(StandardCharsets.UTF_8);
                if (full.length > 16) {
                    continue;
                }
                wordLen[i] = full.length;
                for (int j = 0; j < full.length; j++) {
                    long bits = (long) (full[j] & 0xff) << (8 * (j & 7));
                    long m = 0xffL << (8 * (j & 7));
                    if (j < 8) {
                        word0[i] |= bits;
                        mask0[i] |= m;
                    } else {
                        word1[i] |= bits;
                        mask1[i] |= m;
                    }
                }
            }
        }

        /** Index of the name equal to b[off, off+len), trying {@code hint} (the expected one) first; -1 if none. */
        int find(byte[] b, int off, int len, int hint) {
            if (hint >= 0 && hint < bytes.length && same(bytes[hint], b, off, len)) {
                return hint;
            }
            for (int i = 0; i < bytes.length; i++) {
                if (i != hint && same(bytes[i], b, off, len)) {
                    return i;
                }
            }
            return -1;
        }

        private static boolean same(byte[] k, byte[] b, int off, int len) {
            if (k.length != len) {
                return false;
            }
            for (int i = 0; i < len; i++) {
                if (k[i] != b[off + i]) {
                    return false;
                }
            }
            return true;
        }

        int find(byte[] b, int off, int len) {
            for (int i = 0; i < bytes.length; i++) {
                byte[] k = bytes[i];
                if (same(k, b, off, len)) {
                    return i;
                }
            }
            return -1;
        }

        int find(String s) {
            for (int i = 0; i < names.length; i++) {
                if (names[i].equals(s)) {
                    return i;
                }
            }
            return -1;
        }
    }

    private static final Names RECORD_KEYS = new Names("op", "vt", "e", "chain");
    private static final int R_OP = 0, R_VT = 1, R_E = 2, R_CHAIN = 3;

    private static final Names EVENT_KEYS = new Names("k", "conn", "node", "addr", "src", "dst", "chan_seq",
            "send_vt", "payload", "outcome", "blocking", "invariant", "message", "events", "sent", "dropped");
    private static final int E_K = 0, E_CONN = 1, E_NODE = 2, E_ADDR = 3, E_SRC = 4, E_DST = 5, E_CHAN_SEQ = 6,
            E_SEND_VT = 7, E_PAYLOAD = 8, E_OUTCOME = 9, E_BLOCKING = 10, E_INVARIANT = 11, E_MESSAGE = 12,
            E_EVENTS = 13, E_SENT = 14, E_DROPPED = 15;

    /** Event members whose value is an integer, and those whose value is an address (bit sets of E_*). */
    private static final int EVENT_INTEGERS = 1 << E_CONN | 1 << E_NODE | 1 << E_CHAN_SEQ | 1 << E_SEND_VT
            | 1 << E_EVENTS | 1 << E_SENT | 1 << E_DROPPED;
    private static final int EVENT_ADDRESSES = 1 << E_ADDR | 1 << E_SRC | 1 << E_DST;

    private static final Names EVENT_TAGS = new Names("connect", "hello", "bind", "send", "recv", "disconnect",
            "violation", "end");
    private static final int T_CONNECT = 0, T_HELLO = 1, T_BIND = 2, T_SEND = 3, T_RECV = 4, T_DISCONNECT = 5,
            T_VIOLATION = 6, T_END = 7;

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
    };
    /** Canonical member order of each event variant: the tag first, then the members. */
    private static final int[][] EVENT_ORDER = new int[EVENT_MEMBERS.length][];
    private static final int[] EVENT_ALLOWED = new int[EVENT_MEMBERS.length];
    private static final int[] EVENT_REQUIRED = new int[EVENT_MEMBERS.length];

    static {
        for (int t = 0; t < EVENT_MEMBERS.length; t++) {
            EVENT_ORDER[t] = new int[EVENT_MEMBERS[t].length + 1];
            EVENT_ORDER[t][0] = E_K;
            System.arraycopy(EVENT_MEMBERS[t], 0, EVENT_ORDER[t], 1, EVENT_MEMBERS[t].length);
            for (int m : EVENT_MEMBERS[t]) {
                EVENT_ALLOWED[t] |= 1 << m;
                if (m != E_SEND_VT) { // send_vt is optional on read (missing => 0)
                    EVENT_REQUIRED[t] |= 1 << m;
                }
            }
        }
    }

    private static final Names OUTCOME_KEYS = new Names("kind", "to_conn", "deliv_ns", "tie", "src", "dst", "payload");
    private static final int O_KIND = 0, O_TO_CONN = 1, O_DELIV_NS = 2, O_TIE = 3, O_SRC = 4, O_DST = 5, O_PAYLOAD = 6;
    private static final Names SEND_OUTCOME_TAGS = new Names("dropped", "no_receiver", "enqueued");
    private static final Names RECV_OUTCOME_TAGS = new Names("empty", "delivered");
    private static final int[] ENQUEUED_MEMBERS = {O_TO_CONN, O_DELIV_NS, O_TIE};
    private static final int[] DELIVERED_MEMBERS = {O_SRC, O_DST, O_DELIV_NS, O_TIE, O_PAYLOAD};
    private static final int[] ENQUEUED_ORDER = {O_KIND, O_TO_CONN, O_DELIV_NS, O_TIE};
    private static final int[] DELIVERED_ORDER = {O_KIND, O_SRC, O_DST, O_DELIV_NS, O_TIE, O_PAYLOAD};

    private static final Names ADDR_KEYS = new Names("ip", "port");
    private static final Names TAG_KEY = new Names("k");
    private static final Names KIND_KEY = new Names("kind");

    private static final Names HEADER_KEYS = new Names("format", "version", "seed", "net", "window_ns", "meta");
    private static final Names META_KEYS = new Names("recorded_unix_ms", "weft_version", "label");

    private byte[] b;
    private int p;
    private int end;
    private int lineStart;
    private final StringBuilder sb = new StringBuilder(64);
    /** Name of the last member name parsed that was not in the expected set. */
    private String lastUnknownKey;

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
    private boolean canonical;
    private int chainComma;
    /** End (exclusive) of the canonical prefix of the last record line, or -1 when it must be re-serialized. */
    int canonPrefixEnd;

    // ---------------------------------------------------------------- records

    /** Parses a record line into {@link #op}, {@link #vt}, {@link #event} and the chain fields. */
    void record(byte[] buf, int off, int len) throws JsonSyntaxException {
        start(buf, off, len);
        canonical = true; // before the first ws(): leading whitespace makes the line non-canonical
        ws();
        expect('{', "a record must be a JSON object");
        int seen = 0;
        List<String> unknown = null;
        long op = 0;
        long vt = 0;
        Event e = null;
        chainOff = -1;
        chainText = null;
        chainComma = -1;
        int idx = 0;
        ws();
        if (peek() == '}') {
            p++;
        } else {
            for (;;) {
                int keyAt = p;
                int id = key(RECORD_KEYS, idx < 4 ? idx : -1);
                if (id != idx++) {
                    canonical = false;
                }
                if (id >= 0) {
                    if ((seen & (1 << id)) != 0) {
                        throw duplicate(RECORD_KEYS.names[id], "record");
                    }
                    seen |= 1 << id;
                    if (id == R_CHAIN) {
                        chainComma = keyAt - 1;
                    }
                } else {
                    unknown = noteUnknown(unknown, lastUnknownKey, "record");
                }
                switch (id) {
                    case R_OP -> op = integer("op", U64_MAX);
                    case R_VT -> vt = integer("vt", U64_MAX);
                    case R_E -> e = event();
                    case R_CHAIN -> chain();
                    default -> skipIgnored();
                }
                if (!nextMember("record")) {
                    break;
                }
            }
        }
        endOfTopLevelObject(seen, RECORD_KEYS, "record");
        this.op = op;
        this.vt = vt;
        this.event = e;
        canonPrefixEnd = canonical && idx == 4 ? chainComma : -1;
    }

    private void chain() throws JsonSyntaxException {
        if (peek() != '"') {
            throw err("expected a string for \"chain\"");
        }
        int s = p + 1;
        int i = s;
        while (i < end && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20) {
            i++;
        }
        if (i < end && b[i] == '"') {
            chainOff = s;
            chainLen = i - s;
            p = i + 1;
        } else {
            chainText = string("chain");
        }
    }

    private Event event() throws JsonSyntaxException {
        int start = p;
        int tag = findTag(TAG_KEY, EVENT_TAGS, "event");
        int allowed = EVENT_ALLOWED[tag];
        int[] order = EVENT_ORDER[tag];
        int idx = 0;
        int seen = 0;
        boolean more;
        if (tagConsumed) {
            idx = 1;
            seen = 1 << E_K;
            more = nextMember("event");
        } else {
            p = start;
            expect('{', "an event must be a JSON object");
            ws();
            more = peek() != '}';
            if (!more) {
                p++;
            }
        }
        List<String> unknown = null;
        long conn = 0, node = 0, chanSeq = 0, sendVt = 0, events = 0, sent = 0, dropped = 0;
        VAddr addr = null, src = null, dst = null;
        String payload = null, invariant = null, message = null;
        Object outcome = null;
        boolean blocking = false;
        {
            while (more) {
                int expected = idx < order.length ? order[idx] : -1;
                idx++;
                int id = key(EVENT_KEYS, expected);
                if (id != expected) {
                    canonical = false;
                }
                if (id >= 0) {
                    if ((seen & (1 << id)) != 0) {
                        throw duplicate(EVENT_KEYS.names[id], "event");
                    }
                    seen |= 1 << id;
                    if ((allowed & (1 << id)) == 0) {
                        id = -1; // another variant's member: unknown here, ignored
                    }
                } else {
                    unknown = noteUnknown(unknown, lastUnknownKey, "event");
                }
                // One call site per kind of value (not one per member) keeps this hot method small, so the JIT
                // compiles it sooner and at less cost; the routing below only stores the value.
                if (id < 0) {
                    skipValue(2);
                } else if (((EVENT_INTEGERS >>> id) & 1) != 0) {
                    long n = integer(EVENT_KEYS.names[id], id == E_NODE ? U32_MAX : U64_MAX);
                    switch (id) {
                        case E_CONN -> conn = n;
                        case E_NODE -> node = n;
                        case E_CHAN_SEQ -> chanSeq = n;
                        case E_SEND_VT -> sendVt = n;
                        case E_EVENTS -> events = n;
                        case E_SENT -> sent = n;
                        default -> dropped = n;
                    }
                } else if (((EVENT_ADDRESSES >>> id) & 1) != 0) {
                    VAddr a = address(EVENT_KEYS.names[id]);
                    if (id == E_ADDR) {
                        addr = a;
                    } else if (id == E_SRC) {
                        src = a;
                    } else {
                        dst = a;
                    }
                } else if (id == E_OUTCOME) {
                    outcome = tag == T_SEND ? sendOutcome() : recvOutcome();
                } else if (id == E_BLOCKING) {
                    blocking = bool("blocking");
                } else { // payload, invariant or message: the only string members
                    String text = string(EVENT_KEYS.names[id]);
                    if (id == E_PAYLOAD) {
                        payload = text;
                    } else if (id == E_INVARIANT) {
                        invariant = text;
                    } else {
                        message = text;
                    }
                }
                more = nextMember("event");
            }
        }
        if (idx != order.length) {
            canonical = false; // e.g. send_vt absent: canon inserts it
        }
        int lacking = EVENT_REQUIRED[tag] & ~seen;
        if (lacking != 0) {
            for (int m : EVENT_MEMBERS[tag]) {
                if ((lacking & (1 << m)) != 0) {
                    throw missing(EVENT_KEYS.names[m], EVENT_TAGS.names[tag] + " event");
                }
            }
        }
        return switch (tag) {
            case T_CONNECT -> new Event.Connect(conn);
            case T_HELLO -> new Event.Hello(conn, node);
            case T_BIND -> new Event.Bind(conn, addr);
            case T_SEND -> new Event.Send(conn, src, dst, chanSeq, sendVt, payload, (SendOutcome) outcome);
            case T_RECV -> new Event.Recv(conn, blocking, (RecvOutcome) outcome);
            case T_DISCONNECT -> new Event.Disconnect(conn);
            case T_VIOLATION -> new Event.Violation(invariant, message);
            default -> new Event.End(events, sent, dropped);
        };
    }

    private SendOutcome sendOutcome() throws JsonSyntaxException {
        int start = p;
        int tag = findTag(KIND_KEY, SEND_OUTCOME_TAGS, "send outcome");
        if (tag == 0) {
            finishUnitObject(start, "send outcome");
            return SendOutcome.DROPPED;
        }
        if (tag == 1) {
            finishUnitObject(start, "send outcome");
            return SendOutcome.NO_RECEIVER;
        }
        long[] v = outcomeMembers(start, ENQUEUED_MEMBERS, ENQUEUED_ORDER, "enqueued outcome");
        return new SendOutcome.Enqueued(v[O_TO_CONN], v[O_DELIV_NS], v[O_TIE]);
    }

    private RecvOutcome recvOutcome() throws JsonSyntaxException {
        int start = p;
        int tag = findTag(KIND_KEY, RECV_OUTCOME_TAGS, "recv outcome");
        if (tag == 0) {
            finishUnitObject(start, "recv outcome");
            return RecvOutcome.EMPTY;
        }
        long[] v = outcomeMembers(start, DELIVERED_MEMBERS, DELIVERED_ORDER, "delivered outcome");
        return new RecvOutcome.Delivered(pendingSrc, pendingDst, v[O_DELIV_NS], v[O_TIE], pendingPayload);
    }

    // Scratch for outcome parsing (outcomes do not nest, so one set suffices).
    private final long[] outcomeInts = new long[OUTCOME_KEYS.names.length];
    private VAddr pendingSrc;
    private VAddr pendingDst;
    private String pendingPayload;

    /** Parses an outcome object whose tag is already known; other variants' members are ignored. */
    private long[] outcomeMembers(int start, int[] members, int[] order, String what) throws JsonSyntaxException {
        boolean more;
        int idx = 0;
        int seen = 0;
        if (tagConsumed) {
            idx = 1;
            seen = 1 << O_KIND;
            more = nextMember(what);
        } else {
            p = start;
            expect('{', "an outcome must be a JSON object");
            ws();
            more = peek() != '}';
            if (!more) {
                p++;
            }
        }
        int allowed = 0;
        for (int m : members) {
            allowed |= 1 << m;
        }
        long[] v = outcomeInts;
        List<String> unknown = null;
        {
            while (more) {
                int expected = idx < order.length ? order[idx] : -1;
                idx++;
                int id = key(OUTCOME_KEYS, expected);
                if (id != expected) {
                    canonical = false;
                }
                if (id >= 0) {
                    if ((seen & (1 << id)) != 0) {
                        throw duplicate(OUTCOME_KEYS.names[id], what);
                    }
                    seen |= 1 << id;
                    if ((allowed & (1 << id)) == 0) {
                        id = -1;
                    }
                } else {
                    unknown = noteUnknown(unknown, lastUnknownKey, what);
                }
                // As in event(): one call site per kind of value keeps the method small for the JIT.
                if (id < 0) {
                    skipValue(4);
                } else if (id == O_SRC || id == O_DST) {
                    VAddr a = address(OUTCOME_KEYS.names[id]);
                    if (id == O_SRC) {
                        pendingSrc = a;
                    } else {
                        pendingDst = a;
                    }
                } else if (id == O_PAYLOAD) {
                    pendingPayload = string("payload");
                } else { // to_conn, deliv_ns or tie (kind is never an allowed member here)
                    v[id] = integer(OUTCOME_KEYS.names[id], U64_MAX);
                }
                more = nextMember(what);
            }
        }
        for (int m : members) {
            if ((seen & (1 << m)) == 0) {
                throw missing(OUTCOME_KEYS.names[m], what);
            }
        }
        if (idx != order.length) {
            canonical = false;
        }
        return v;
    }

    /** An outcome variant without members: everything but the tag is unknown and skipped. */
    private void finishUnitObject(int start, String what) throws JsonSyntaxException {
        if (tagConsumed && p < end && b[p] == '}') {
            p++; // the usual {"kind":"..."}
            return;
        }
        p = start;
        expectAt('{', "expected an object");
        skip(KIND_KEY, what, 4);
    }

    private VAddr address(String field) throws JsonSyntaxException {
        if (peek() != '{') {
            throw err("expected an address object for \"" + field + "\"");
        }
        p++;
        int seen = 0;
        List<String> unknown = null;
        long ip = 0;
        long port = 0;
        int idx = 0;
        ws();
        if (peek() == '}') {
            p++;
        } else {
            for (;;) {
                int id = key(ADDR_KEYS, idx);
                if (id != idx++) {
                    canonical = false;
                }
                if (id >= 0) {
                    if ((seen & (1 << id)) != 0) {
                        throw duplicate(ADDR_KEYS.names[id], "address");
                    }
                    seen |= 1 << id;
                } else {
                    unknown = noteUnknown(unknown, lastUnknownKey, "address");
                }
                switch (id) {
                    case 0 -> ip = integer("ip", U32_MAX);
                    case 1 -> port = integer("port", U16_MAX);
                    default -> skipValue(5);
                }
                if (!nextMember("address")) {
                    break;
                }
            }
        }
        if ((seen & 1) == 0) {
            throw missing("ip", "address \"" + field + "\"");
        }
        if ((seen & 2) == 0) {
            throw missing("port", "address \"" + field + "\"");
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
    private int findTag(Names tagKey, Names values, String what) throws JsonSyntaxException {
        int start = p;
        if (peek() != '{') {
            throw err("expected an object for the " + what);
        }
        p++;
        ws();
        if (peek() == '"') {
            int id = key(tagKey, 0);
            if (id == 0) {
                int tag = tagValue(values, tagKey.names[0], what);
                tagConsumed = true;
                return tag;
            }
        }
        tagConsumed = false;
        // The tag is not first: scan every member (validating the JSON) to find it.
        p = start + 1;
        int tag = -1;
        ws();
        if (peek() == '}') {
            p++;
        } else {
            for (;;) {
                int id = key(tagKey, 0);
                if (id == 0) {
                    if (tag >= 0) {
                        throw duplicate(tagKey.names[0], what);
                    }
                    tag = tagValue(values, tagKey.names[0], what);
                } else {
                    skipValue(3);
                }
                if (!nextMember(what)) {
                    break;
                }
            }
        }
        if (tag < 0) {
            throw missing(tagKey.names[0], what);
        }
        p = start;
        return tag;
    }

    private int tagValue(Names values, String key, String what) throws JsonSyntaxException {
        if (peek() != '"') {
            throw err("expected a string for \"" + key + "\" of the " + what);
        }
        int s = p + 1;
        int i = s;
        while (i < end && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20) {
            i++;
        }
        int found;
        String text;
        if (i < end && b[i] == '"') {
            found = values.find(b, s, i - s);
            text = found >= 0 ? null : new String(b, s, i - s, StandardCharsets.ISO_8859_1);
            p = i + 1;
        } else {
            text = string(key);
            found = values.find(text);
        }
        if (found < 0) {
            throw new JsonSyntaxException("unknown " + what + " kind " + dev.weft.text.RustText.debugQuote(text) + " (" + key + ") before column "
                    + column(), false);
        }
        return found;
    }

    // ---------------------------------------------------------------- header

    /** Parses line 1 (§3). Format and version are returned as read; the caller checks them (§9 order). */
    LogHeader header(byte[] buf, int off, int len, String rawLine) throws JsonSyntaxException {
        start(buf, off, len);
        ws();
        expect('{', "the header must be a JSON object");
        SeenMembers members = new SeenMembers(HEADER_KEYS, "header");
        String format = null, net = null;
        long version = 0, seed = 0, windowNs = 0;
        LogMeta meta = LogMeta.EMPTY;
        ws();
        if (peek() == '}') {
            p++;
        } else {
            for (;;) {
                int id = members.next();
                switch (id) {
                    case 0 -> format = string("format");
                    case 1 -> version = integer("version", U32_MAX);
                    case 2 -> seed = integer("seed", U64_MAX);
                    case 3 -> net = string("net");
                    case 4 -> windowNs = integer("window_ns", U64_MAX);
                    case 5 -> meta = meta();
                    default -> skipIgnored();
                }
                if (!nextMember("header")) {
                    break;
                }
            }
        }
        endOfTopLevelObject(members.bits, HEADER_KEYS, "header");
        return new LogHeader(rawLine, format, version, seed, net, windowNs, meta);
    }

    private LogMeta meta() throws JsonSyntaxException {
        if (peek() != '{') {
            throw err("\"meta\" must be an object");
        }
        p++;
        SeenMembers members = new SeenMembers(META_KEYS, "meta");
        Long recorded = null;
        String weftVersion = null, label = null;
        ws();
        if (peek() == '}') {
            p++;
        } else {
            for (;;) {
                int id = members.next();
                boolean isNull = id >= 0 && literal("null");
                switch (id) {
                    case 0 -> recorded = isNull ? null : integer("recorded_unix_ms", U64_MAX);
                    case 1 -> weftVersion = isNull ? null : string("weft_version");
                    case 2 -> label = isNull ? null : string("label");
                    default -> skipIgnored();
                }
                if (!nextMember("meta")) {
                    break;
                }
            }
        }
        return new LogMeta(recorded, weftVersion, label);
    }

    /**
     * The member names of one object on a cold path (header, meta): known names by bit, a known name twice is an
     * error, unknown names are noted (ignored, but not twice). The hot record path keeps these in locals.
     */
    private final class SeenMembers {
        private final Names keys;
        private final String what;
        int bits;
        private List<String> unknown;

        SeenMembers(Names keys, String what) {
            this.keys = keys;
            this.what = what;
        }

        /** The next member's name (see key()): its id in keys, or -1. */
        int next() throws JsonSyntaxException {
            int id = key(keys, -1);
            if (id >= 0) {
                if ((bits & (1 << id)) != 0) {
                    throw duplicate(keys.names[id], what);
                }
                bits |= 1 << id;
            } else {
                unknown = noteUnknown(unknown, lastUnknownKey, what);
            }
            return id;
        }
    }

    // ---------------------------------------------------------------- tokens

    private void start(byte[] buf, int off, int len) {
        b = buf;
        p = off;
        lineStart = off;
        end = off + len;
    }

    private int peek() {
        return p < end ? b[p] : -1;
    }

    private void ws() {
        int s = p;
        while (p < end) {
            byte c = b[p];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                p++;
            } else {
                break;
            }
        }
        if (p != s) {
            canonical = false;
        }
    }

    /** Fails unless the next byte is c (which stays unread). */
    private void expectAt(char c, String what) throws JsonSyntaxException {
        if (peek() != c) {
            throw err(what);
        }
    }

    private void expect(char c, String what) throws JsonSyntaxException {
        if (p < end && b[p] == c) {
            p++;
        } else {
            throw err(what);
        }
    }

    /** After a member value: true if a ',' (another member follows), false at '}'. */
    private boolean nextMember(String what) throws JsonSyntaxException {
        ws();
        if (p < end) {
            byte c = b[p++];
            if (c == ',') {
                ws();
                return true;
            }
            if (c == '}') {
                return false;
            }
            p--;
        }
        throw err("expected ',' or '}' in " + what);
    }

    /**
     * Parses a member name and the following ':'; returns its index in {@code keys} or -1 (then
     * {@link #lastUnknownKey} holds the decoded name).
     */
    private int key(Names keys, int hint) throws JsonSyntaxException {
        if (p >= end || b[p] != '"') {
            throw err("expected a member name in double quotes");
        }
        if (hint >= 0 && hint < keys.quoted.length && p + 16 <= end && keys.wordLen[hint] != 0) {
            // Writers emit members in canonical order: compare "name": with the expected one, 8 bytes at a time.
            if (((long) LONG_LE.get(b, p) & keys.mask0[hint]) == keys.word0[hint]
                    && ((long) LONG_LE.get(b, p + 8) & keys.mask1[hint]) == keys.word1[hint]) {
                p += keys.wordLen[hint];
                if (p < end && b[p] <= ' ') {
                    ws();
                }
                return hint;
            }
        } else if (hint >= 0 && hint < keys.quoted.length) {
            // Near the end of the line: the same test, byte by byte.
            byte[] k = keys.quoted[hint];
            int n = k.length;
            int q = p + 1;
            if (q + n < end) {
                int i = 0;
                while (i < n && b[q + i] == k[i]) {
                    i++;
                }
                if (i == n) {
                    p = q + n;
                    if (b[p] == ':') {
                        p++;
                        if (p < end && b[p] <= ' ') {
                            ws();
                        }
                    } else {
                        colon();
                    }
                    return hint;
                }
            }
        }
        int s = ++p;
        while (p < end) {
            byte c = b[p];
            if (c == '"') {
                break;
            }
            if (c < 0x20 || c == '\\') { // control, escape or non-ASCII: decode properly
                p = s;
                canonical = false;
                String name = stringBody(s);
                int id = keys.find(name);
                lastUnknownKey = id < 0 ? name : null;
                colon();
                return id;
            }
            p++;
        }
        if (p >= end) {
            throw err("unterminated member name");
        }
        int len = p - s;
        p++;
        int id = len == 0 ? -1 : keys.find(b, s, len, hint);
        if (id < 0) {
            lastUnknownKey = new String(b, s, len, StandardCharsets.ISO_8859_1);
        }
        colon();
        return id;
    }

    private void colon() throws JsonSyntaxException {
        ws();
        expect(':', "expected ':' after a member name");
        ws();
    }

    /** Records an unknown member name of an object (ignored, but not twice); the line is then not canonical. */
    private List<String> noteUnknown(List<String> seen, String name, String what) throws JsonSyntaxException {
        canonical = false;
        return noteName(seen, name, what);
    }

    private List<String> noteName(List<String> seen, String name, String what) throws JsonSyntaxException {
        if (seen == null) {
            seen = new ArrayList<>(2);
        } else if (seen.contains(name)) {
            throw duplicate(name, what);
        }
        seen.add(name);
        return seen;
    }

    /** A JSON integer for an unsigned field with the given (unsigned) maximum. */
    private long integer(String field, long max) throws JsonSyntaxException {
        int s = p;
        if (p >= end) {
            throw err("expected an integer for \"" + field + "\"");
        }
        int c = b[p];
        if (c < '0' || c > '9') {
            if (c == '-') {
                throw err("\"" + field + "\" must be an unsigned integer, found a negative number");
            }
            throw err("expected an integer for \"" + field + "\"");
        }
        long v;
        int i;
        if (p + 8 <= end) {
            // Up to 8 digits at once: find how many of the next 8 bytes are digits, convert them together.
            long x = (long) LONG_LE.get(b, p);
            long nonDigit = ((x & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L)
                    | (((x + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) ^ 0x3030303030303030L);
            int n = nonDigit == 0 ? 8 : Long.numberOfTrailingZeros(nonDigit) >>> 3;
            v = eightDigits(n == 8 ? x : (x & ((1L << (8 * n)) - 1)) << (8 * (8 - n)));
            i = p + n;
        } else {
            v = c - '0';
            i = p + 1;
        }
        int fastEnd = Math.min(end, p + 18); // 18 digits always fit in a signed long
        while (i < fastEnd) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            v = v * 10 + d;
            i++;
        }
        while (i < end) { // digits 19 and 20, and any further ones: check for unsigned overflow
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            if (Long.compareUnsigned(v, 1844674407370955161L) > 0 || (v == 1844674407370955161L && d > 5)) {
                throw new JsonSyntaxException("number for \"" + field + "\" out of range at column "
                        + (s - lineStart + 1), false);
            }
            v = v * 10 + d;
            i++;
        }
        if (c == '0' && i - p > 1) {
            p++;
            throw err("leading zero in the number for \"" + field + "\"");
        }
        p = i;
        if (p < end && (b[p] == '.' || b[p] == 'e' || b[p] == 'E')) {
            throw err("\"" + field + "\" must be an integer (no fraction or exponent)");
        }
        if (max != U64_MAX && Long.compareUnsigned(v, max) > 0) {
            throw new JsonSyntaxException("number " + Long.toUnsignedString(v) + " for \"" + field
                    + "\" out of range (max " + max + ") at column " + (s - lineStart + 1), false);
        }
        return v;
    }

    /**
     * The value of 8 ASCII digits loaded little-endian (first digit in the lowest byte; leading zero
     * bytes count as zeros): pairs, then quads, then the whole, each step one multiply.
     */
    private static long eightDigits(long raw) {
        long v = ((raw & 0x0F0F0F0F0F0F0F0FL) * 2561) >>> 8;
        v = ((v & 0x00FF00FF00FF00FFL) * 6553601) >>> 16;
        return ((v & 0x0000FFFF0000FFFFL) * 42949672960001L) >>> 32;
    }

    private boolean bool(String field) throws JsonSyntaxException {
        if (literal("true")) {
            return true;
        }
        if (literal("false")) {
            return false;
        }
        throw err("expected true or false for \"" + field + "\"");
    }

    /** Consumes the literal if it is next (followed by a non-identifier char is checked by the caller's grammar). */
    private boolean literal(String word) {
        int n = word.length();
        if (p + n > end) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (b[p + i] != word.charAt(i)) {
                return false;
            }
        }
        p += n;
        return true;
    }

    private String string(String field) throws JsonSyntaxException {
        if (p >= end || b[p] != '"') {
            throw err("expected a string for \"" + field + "\"");
        }
        int s = ++p;
        while (p < end) {
            byte c = b[p];
            if (c == '"') {
                String r = new String(b, s, p - s, StandardCharsets.ISO_8859_1);
                p++;
                return r;
            }
            if (c < 0x20 || c == '\\') {
                break;
            }
            p++;
        }
        p = s;
        canonical = false;
        return stringBody(s);
    }

    /** Decodes a string body starting at s (just after the opening quote) and consumes the closing quote. */
    private String stringBody(int s) throws JsonSyntaxException {
        sb.setLength(0);
        p = s;
        for (;;) {
            if (p >= end) {
                throw err("unterminated string");
            }
            int c = b[p];
            if (c == '"') {
                p++;
                return sb.toString();
            }
            if (c == '\\') {
                p++;
                int cp = escape();
                sb.appendCodePoint(cp);
            } else if (c >= 0x20) {
                sb.append((char) c);
                p++;
            } else if (c >= 0) {
                throw err("control character in a string (must be escaped)");
            } else {
                int n = Utf8.sequenceLength(b, p, end);
                if (n == 0) {
                    throw new JsonSyntaxException("invalid UTF-8", true);
                }
                sb.appendCodePoint(Utf8.decode(b, p, n));
                p += n;
            }
        }
    }

    /** Validates and skips a string value (p at its opening quote) without decoding it. */
    private void skipString() throws JsonSyntaxException {
        p++;
        for (;;) {
            if (p >= end) {
                throw err("unterminated string");
            }
            int c = b[p];
            if (c == '"') {
                p++;
                return;
            }
            if (c == '\\') {
                p++;
                escape();
            } else if (c >= 0x20) {
                p++;
            } else if (c >= 0) {
                throw err("control character in a string (must be escaped)");
            } else {
                int n = Utf8.sequenceLength(b, p, end);
                if (n == 0) {
                    throw new JsonSyntaxException("invalid UTF-8", true);
                }
                p += n;
            }
        }
    }

    /** After a backslash: returns the code point of the escape (surrogate pairs combined, lone ones rejected). */
    private int escape() throws JsonSyntaxException {
        if (p >= end) {
            throw err("unterminated string");
        }
        int c = b[p++];
        int simple = JsonEscapes.simple(c);
        if (simple >= 0) {
            return simple;
        }
        switch (c) {
            case 'u': {
                int u = hex4();
                if (u >= 0xD800 && u <= 0xDBFF) {
                    if (p + 1 < end && b[p] == '\\' && b[p + 1] == 'u') {
                        p += 2;
                        int lo = hex4();
                        if (lo >= 0xDC00 && lo <= 0xDFFF) {
                            return Character.toCodePoint((char) u, (char) lo);
                        }
                    }
                    throw err("lone leading surrogate in a \\u escape");
                }
                if (u >= 0xDC00 && u <= 0xDFFF) {
                    throw err("lone trailing surrogate in a \\u escape");
                }
                return u;
            }
            default:
                p--;
                throw err("invalid escape in a string");
        }
    }

    private int hex4() throws JsonSyntaxException {
        if (p + 4 > end) {
            throw err("unterminated \\u escape");
        }
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int c = b[p];
            int d = JsonEscapes.hexDigit(c);
            if (d < 0) {
                throw err("invalid hex digit in a \\u escape");
            }
            v = (v << 4) | d;
            p++;
        }
        return v;
    }

    // ---------------------------------------------------------------- skipping unknown values
    // Iterative, with an explicit stack of the open containers, so no depth can overflow the thread's stack.
    // Where the reference ignores a value (unknown members of the record, header and meta) it accepts any depth.
    // Inside an event or outcome it has buffered the whole tagged object before it knows the variant, and its
    // parser's recursion limit of 128 levels (counted from the line's object) applies there: so here too.

    /** serde_json's recursion limit for values it buffers (event and outcome members). */
    private static final int MAX_DEPTH = 128;
    private static final int ANY_DEPTH = Integer.MIN_VALUE / 2;

    /** Per open container of the value being skipped: whether it is an object. Reused across lines. */
    private boolean[] openIsObject = new boolean[16];
    /** Per open object: the member names seen so far (null before the second), to reject duplicates. */
    private List<?>[] openNames = new List<?>[16];

    /** Skips an unknown member's value where the reference ignores it: any depth. */
    private void skipIgnored() throws JsonSyntaxException {
        skip(null, "object", ANY_DEPTH);
    }

    /** Skips a value at nesting level {@code level} of a buffered (tagged) object: at most {@link #MAX_DEPTH}. */
    private void skipValue(int level) throws JsonSyntaxException {
        skip(null, "object", level);
    }

    /**
     * Skips one JSON value, still checking it as JSON and rejecting duplicate member names in its objects; if
     * it is an object, {@code topKeys} (may be null) are the names its own members are matched against and
     * {@code topWhat} names it in errors; {@code level} is its nesting level for the recursion limit.
     */
    private void skip(Names topKeys, String topWhat, int level) throws JsonSyntaxException {
        int depth = 0;
        for (;;) {
            if (level + depth > MAX_DEPTH) {
                throw err("recursion limit exceeded");
            }
            int c = peek(); // at the start of a value
            if (c == '{' || c == '[') {
                p++;
                ws();
                if (peek() == (c == '{' ? '}' : ']')) {
                    p++;
                } else {
                    open(depth++, c == '{');
                    if (c == '{') {
                        skippedMemberName(depth, topKeys, topWhat);
                    }
                    continue;
                }
            } else {
                skipScalar(c);
            }
            // A value ended: close the containers it ends, then go on to the next member or element.
            for (;;) {
                if (depth == 0) {
                    return;
                }
                ws();
                boolean object = openIsObject[depth - 1];
                int d = peek();
                if (d == ',') {
                    p++;
                    ws();
                    if (object) {
                        skippedMemberName(depth, topKeys, topWhat);
                    }
                    break;
                }
                if (d == (object ? '}' : ']')) {
                    p++;
                    openNames[--depth] = null;
                    continue;
                }
                throw err(object ? "expected ',' or '}' in " + (depth == 1 ? topWhat : "object")
                        : "expected ',' or ']' in an array");
            }
        }
    }

    private void open(int depth, boolean object) {
        if (depth == openIsObject.length) {
            openIsObject = java.util.Arrays.copyOf(openIsObject, depth * 2);
            openNames = java.util.Arrays.copyOf(openNames, depth * 2);
        }
        openIsObject[depth] = object;
        openNames[depth] = null;
    }

    /** A member name (and its ':') inside the object open at {@code depth}; duplicates are errors. */
    @SuppressWarnings("unchecked")
    private void skippedMemberName(int depth, Names topKeys, String topWhat) throws JsonSyntaxException {
        Names keys = depth == 1 && topKeys != null ? topKeys : TAG_KEY;
        int id = key(keys, 0);
        if (id < 0) {
            canonical = false;
        }
        String name = id >= 0 ? keys.names[id] : lastUnknownKey;
        openNames[depth - 1] = noteName((List<String>) openNames[depth - 1], name, depth == 1 ? topWhat : "object");
    }

    private void skipScalar(int c) throws JsonSyntaxException {
        switch (c) {
            case '"' -> skipString();
            case 't', 'f', 'n' -> {
                if (!literal("true") && !literal("false") && !literal("null")) {
                    throw err("expected a JSON value");
                }
            }
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    skipNumber();
                } else {
                    throw err("expected a JSON value");
                }
            }
        }
    }

    private void skipNumber() throws JsonSyntaxException {
        if (b[p] == '-') {
            p++;
        }
        if (p >= end || b[p] < '0' || b[p] > '9') {
            throw err("invalid number");
        }
        if (b[p] == '0') {
            p++;
            if (p < end && b[p] >= '0' && b[p] <= '9') {
                throw err("invalid number (leading zero)");
            }
        } else {
            digits();
        }
        if (p < end && b[p] == '.') {
            p++;
            if (digits() == 0) {
                throw err("invalid number");
            }
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < end && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            if (digits() == 0) {
                throw err("invalid number");
            }
        }
    }

    private int digits() {
        int s = p;
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p - s;
    }

    // ---------------------------------------------------------------- errors

    private int column() {
        return p - lineStart + 1;
    }

    private JsonSyntaxException err(String what) {
        String where = p >= end ? " at end of line" : " at column " + column();
        return new JsonSyntaxException(what + where, false);
    }

    private JsonSyntaxException duplicate(String name, String what) {
        return new JsonSyntaxException("duplicate member \"" + name + "\" in " + what + " before column " + column(), false);
    }

    /**
     * After a line's top-level object (header or record): nothing but white space may follow, and its first four
     * members (the required ones, by their ids in {@code keys}) must all have been seen.
     */
    private void endOfTopLevelObject(int seen, Names keys, String what) throws JsonSyntaxException {
        ws();
        if (p < end) {
            throw err("trailing characters after the " + what + " object");
        }
        for (int id = 0; id < 4; id++) {
            if ((seen & (1 << id)) == 0) {
                throw missing(keys.names[id], what);
            }
        }
    }

    private JsonSyntaxException missing(String name, String what) {
        return new JsonSyntaxException("missing member \"" + name + "\" in " + what, false);
    }
}
