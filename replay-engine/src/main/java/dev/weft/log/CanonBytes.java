package dev.weft.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable byte buffer holding the canonical compact JSON of records (weft-log-v2.md §2 and §7): the
 * single place that decides member order and escaping. The reader hashes straight from {@link #bytes()},
 * the writer writes them out, and {@link CanonicalJson} wraps them as text.
 */
final class CanonBytes {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private static byte[] lit(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static final byte[] OP = lit("{\"op\":");
    private static final byte[] VT = lit(",\"vt\":");
    private static final byte[] E = lit(",\"e\":");
    private static final byte[] CONNECT = lit("{\"k\":\"connect\",\"conn\":");
    private static final byte[] HELLO = lit("{\"k\":\"hello\",\"conn\":");
    private static final byte[] NODE = lit(",\"node\":");
    private static final byte[] BIND = lit("{\"k\":\"bind\",\"conn\":");
    private static final byte[] ADDR = lit(",\"addr\":");
    private static final byte[] SEND = lit("{\"k\":\"send\",\"conn\":");
    private static final byte[] SRC = lit(",\"src\":");
    private static final byte[] DST = lit(",\"dst\":");
    private static final byte[] CHAN_SEQ = lit(",\"chan_seq\":");
    private static final byte[] SEND_VT = lit(",\"send_vt\":");
    private static final byte[] PAYLOAD = lit(",\"payload\":");
    private static final byte[] OUTCOME = lit(",\"outcome\":");
    private static final byte[] RECV = lit("{\"k\":\"recv\",\"conn\":");
    private static final byte[] BLOCKING_TRUE = lit(",\"blocking\":true");
    private static final byte[] BLOCKING_FALSE = lit(",\"blocking\":false");
    private static final byte[] DISCONNECT = lit("{\"k\":\"disconnect\",\"conn\":");
    private static final byte[] VIOLATION = lit("{\"k\":\"violation\",\"invariant\":");
    private static final byte[] MESSAGE = lit(",\"message\":");
    private static final byte[] END = lit("{\"k\":\"end\",\"events\":");
    private static final byte[] SENT = lit(",\"sent\":");
    private static final byte[] DROPPED_COUNT = lit(",\"dropped\":");
    private static final byte[] DROPPED = lit("{\"kind\":\"dropped\"}");
    private static final byte[] NO_RECEIVER = lit("{\"kind\":\"no_receiver\"}");
    private static final byte[] ENQUEUED = lit("{\"kind\":\"enqueued\",\"to_conn\":");
    private static final byte[] DELIV_NS = lit(",\"deliv_ns\":");
    private static final byte[] TIE = lit(",\"tie\":");
    private static final byte[] EMPTY = lit("{\"kind\":\"empty\"}");
    private static final byte[] DELIVERED = lit("{\"kind\":\"delivered\",\"src\":");
    private static final byte[] IP = lit("{\"ip\":");
    private static final byte[] PORT = lit(",\"port\":");
    private static final byte[] CHAIN = lit(",\"chain\":\"");
    private static final byte[] HEADER_START = lit("{\"format\":\"weft-log\",\"version\":2,\"seed\":");
    private static final byte[] NET = lit(",\"net\":");
    private static final byte[] WINDOW_NS = lit(",\"window_ns\":");
    private static final byte[] META = lit(",\"meta\":{");
    private static final byte[] RECORDED_UNIX_MS = lit("\"recorded_unix_ms\":");
    private static final byte[] WEFT_VERSION = lit("\"weft_version\":");
    private static final byte[] LABEL = lit("\"label\":");
    private static final byte[] HOSTS = lit("\"hosts\":");
    private static final byte[] PLAN = lit("\"plan\":");

    // TCP streams and extensions (docs/weft-log-format.md): member literals in written order.
    private static final byte[] EXT = lit("{\"k\":\"ext\",\"name\":");
    private static final byte[] VERSION = lit(",\"version\":");
    private static final byte[] TCP_BIND = lit("{\"k\":\"tcp_bind\",\"conn\":");
    private static final byte[] TCP_LISTEN = lit("{\"k\":\"tcp_listen\",\"conn\":");
    private static final byte[] BACKLOG = lit(",\"backlog\":");
    private static final byte[] TCP_CONNECT = lit("{\"k\":\"tcp_connect\",\"conn\":");
    private static final byte[] TCP_ESTABLISHED = lit("{\"k\":\"tcp_established\",\"conn\":");
    private static final byte[] TCP_ACCEPT = lit("{\"k\":\"tcp_accept\",\"conn\":");
    private static final byte[] TCP_ADOPT = lit("{\"k\":\"tcp_adopt\",\"conn\":");
    private static final byte[] TCP_SEND = lit("{\"k\":\"tcp_send\",\"conn\":");
    private static final byte[] TCP_RECV = lit("{\"k\":\"tcp_recv\",\"conn\":");
    private static final byte[] TCP_SHUTDOWN = lit("{\"k\":\"tcp_shutdown\",\"conn\":");
    private static final byte[] TCP_CLOSE = lit("{\"k\":\"tcp_close\",\"conn\":");
    private static final byte[] TCP_RESET = lit("{\"k\":\"tcp_reset\",\"sid\":");
    private static final byte[] TCP_PARTITION = lit("{\"k\":\"tcp_partition\",\"at_ns\":");
    private static final byte[] SIGNAL_EVENT = lit("{\"k\":\"signal\",\"node\":");
    private static final byte[] SID = lit(",\"sid\":");
    private static final byte[] OFFSET = lit(",\"offset\":");
    private static final byte[] MAX = lit(",\"max\":");
    private static final byte[] PEEK = lit(",\"peek\":");
    private static final byte[] BLOCKING = lit(",\"blocking\":");
    private static final byte[] HOW = lit(",\"how\":");
    private static final byte[] RESET_MEMBER = lit(",\"reset\":");
    private static final byte[] REASON = lit(",\"reason\":");
    private static final byte[] AT_NS = lit(",\"at_ns\":");
    private static final byte[] SPEC = lit(",\"spec\":");
    private static final byte[] SIGNAL = lit(",\"signal\":");
    private static final byte[] ESTABLISHED = lit("{\"kind\":\"established\",\"est_ns\":");
    private static final byte[] REFUSED = lit("{\"kind\":\"refused\",\"at_ns\":");
    private static final byte[] TIMED_OUT = lit("{\"kind\":\"timed_out\",\"at_ns\":");
    private static final byte[] ACCEPTED = lit("{\"kind\":\"accepted\",\"sid\":");
    private static final byte[] SYN_NS = lit(",\"syn_ns\":");
    private static final byte[] SEGMENT = lit("{\"kind\":\"segment\",\"deliv_ns\":");
    private static final byte[] RETRANSMITS = lit(",\"retransmits\":");
    private static final byte[] DATA = lit("{\"kind\":\"data\",\"offset\":");

    private static final byte[] KIND_OPEN = lit("{\"kind\":");
    private static final byte[] TRUE = lit("true");
    private static final byte[] FALSE = lit("false");

    private static final long[] POW10 = new long[19];
    private static final byte[] DIGIT_TENS = new byte[100];
    private static final byte[] DIGIT_ONES = new byte[100];

    static {
        long p = 1;
        for (int i = 0; i < 19; i++) {
            POW10[i] = p;
            p *= 10;
        }
        for (int i = 0; i < 100; i++) {
            DIGIT_TENS[i] = (byte) ('0' + i / 10);
            DIGIT_ONES[i] = (byte) ('0' + i % 10);
        }
    }

    private byte[] buf = new byte[512];
    private int len;

    byte[] bytes() {
        return buf;
    }

    int length() {
        return len;
    }

    void reset() {
        len = 0;
    }

    String text() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }

    private void put(byte[] lit) {
        ensure(lit.length);
        System.arraycopy(lit, 0, buf, len, lit.length);
        len += lit.length;
    }

    private void put(char c) {
        ensure(1);
        buf[len++] = (byte) c;
    }

    /** Unsigned decimal, no sign, no leading zeros. */
    void u64(long v) {
        ensure(20);
        if (v < 0) {
            // Above 2^63-1: rare (seeds, ties); split off the last digit to stay in signed range.
            long q = Long.divideUnsigned(v, 10);
            int last = (int) (v - q * 10);
            u64(q);
            buf[len++] = (byte) ('0' + last);
            return;
        }
        int digits = 1;
        while (digits < 19 && v >= POW10[digits]) {
            digits++;
        }
        int at = len + digits;
        while (v >= 100) {
            int r = (int) (v % 100);
            v /= 100;
            buf[--at] = DIGIT_ONES[r];
            buf[--at] = DIGIT_TENS[r];
        }
        if (v >= 10) {
            buf[--at] = DIGIT_ONES[(int) v];
            buf[--at] = DIGIT_TENS[(int) v];
        } else {
            buf[--at] = (byte) ('0' + v);
        }
        len += digits;
    }

    /** A JSON string with exactly the escaping of §2; lone surrogates (not representable in UTF-8) become U+FFFD. */
    void string(String s) {
        int n = s.length();
        ensure(6 * n + 2); // at most 6 bytes per char (a control escape); a surrogate pair is 4 bytes for 2 chars
        buf[len++] = '"';
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                buf[len++] = (byte) c;
            } else if (c < 0x80) {
                escapeAscii(c);
            } else {
                int cp = c;
                if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    cp = Character.toCodePoint(c, s.charAt(++i));
                } else if (Character.isSurrogate(c)) {
                    cp = 0xFFFD;
                }
                utf8(cp);
            }
        }
        put('"');
    }

    private void escapeAscii(char c) {
        ensure(6);
        buf[len++] = '\\';
        switch (c) {
            case '"' -> buf[len++] = '"';
            case '\\' -> buf[len++] = '\\';
            case '\b' -> buf[len++] = 'b';
            case '\t' -> buf[len++] = 't';
            case '\n' -> buf[len++] = 'n';
            case '\f' -> buf[len++] = 'f';
            case '\r' -> buf[len++] = 'r';
            default -> {
                buf[len++] = 'u';
                buf[len++] = '0';
                buf[len++] = '0';
                buf[len++] = HEX[c >> 4];
                buf[len++] = HEX[c & 0xf];
            }
        }
    }

    private void utf8(int cp) {
        ensure(4);
        if (cp < 0x800) {
            buf[len++] = (byte) (0xC0 | (cp >> 6));
        } else if (cp < 0x10000) {
            buf[len++] = (byte) (0xE0 | (cp >> 12));
            buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        } else {
            buf[len++] = (byte) (0xF0 | (cp >> 18));
            buf[len++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
            buf[len++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
        }
        buf[len++] = (byte) (0x80 | (cp & 0x3F));
    }

    /** canon(op, vt, e) of §7: {"op":..,"vt":..,"e":{..}} */
    void record(long op, long vt, Event e) {
        put(OP);
        u64(op);
        put(VT);
        u64(vt);
        put(E);
        event(e);
        put('}');
    }

    /**
     * Turns the canon record in the buffer into its written line: drops the record's closing brace and
     * appends {@code ,"chain":"<16 hex>"}} and the line terminator.
     */
    void chainAndNewline(long chain) {
        len--;
        put(CHAIN);
        ensure(19);
        Fnv1a.writeHex16(chain, buf, len);
        len += 16;
        buf[len++] = '"';
        buf[len++] = '}';
        buf[len++] = '\n';
    }

    void event(Event e) {
        if (e instanceof Event.Send s) {
            u64(SEND, s.conn());
            addr(SRC, s.src());
            addr(DST, s.dst());
            u64(CHAN_SEQ, s.chanSeq());
            u64(SEND_VT, s.sendVt());
            string(PAYLOAD, s.payload());
            put(OUTCOME);
            sendOutcome(s.outcome());
        } else if (e instanceof Event.Recv r) {
            u64(RECV, r.conn());
            put(r.blocking() ? BLOCKING_TRUE : BLOCKING_FALSE);
            put(OUTCOME);
            recvOutcome(r.outcome());
        } else if (e instanceof Event.Connect c) {
            u64(CONNECT, c.conn());
        } else if (e instanceof Event.Hello h) {
            u64(HELLO, h.conn());
            u64(NODE, h.node());
        } else if (e instanceof Event.Bind b) {
            u64(BIND, b.conn());
            addr(ADDR, b.addr());
        } else if (e instanceof Event.Disconnect d) {
            u64(DISCONNECT, d.conn());
        } else if (e instanceof Event.Violation v) {
            string(VIOLATION, v.invariant());
            string(MESSAGE, v.message());
        } else if (e instanceof Event.End end) {
            u64(END, end.events());
            u64(SENT, end.sent());
            u64(DROPPED_COUNT, end.dropped());
        } else {
            extensionEvent(e);
        }
        put('}');
    }

    /** The TCP stream records, the ext and the signal record (docs/weft-log-format.md), without the closing brace. */
    private void extensionEvent(Event e) {
        if (e instanceof Event.TcpSend s) {
            u64(TCP_SEND, s.conn());
            u64(SID, s.sid());
            u64(OFFSET, s.offset());
            u64(SEND_VT, s.sendVt());
            string(PAYLOAD, s.payload());
            put(OUTCOME);
            tagged(s.outcome().kind());
            if (s.outcome() instanceof TcpSendOutcome.Segment g) {
                u64(DELIV_NS, g.delivNs());
                u64(RETRANSMITS, g.retransmits());
            }
            put('}');
        } else if (e instanceof Event.TcpRecv r) {
            u64(TCP_RECV, r.conn());
            u64(SID, r.sid());
            u64(MAX, r.max());
            bool(PEEK, r.peek());
            bool(BLOCKING, r.blocking());
            put(OUTCOME);
            if (r.outcome() instanceof TcpRecvOutcome.Data d) {
                u64(DATA, d.offset());
                u64(DELIV_NS, d.delivNs());
                string(PAYLOAD, d.payload());
                put('}');
            } else {
                tagged(r.outcome().kind());
                put('}');
            }
        } else if (e instanceof Event.Ext x) {
            string(EXT, x.name());
            u64(VERSION, x.version());
        } else if (e instanceof Event.TcpBind b) {
            u64(TCP_BIND, b.conn());
            addr(ADDR, b.addr());
        } else if (e instanceof Event.TcpListen l) {
            u64(TCP_LISTEN, l.conn());
            u64(BACKLOG, l.backlog());
        } else if (e instanceof Event.TcpConnect c) {
            u64(TCP_CONNECT, c.conn());
            u64(SID, c.sid());
            addr(SRC, c.src());
            addr(DST, c.dst());
            u64(SEND_VT, c.sendVt());
            connectOutcome(c.outcome());
        } else if (e instanceof Event.TcpEstablished c) {
            u64(TCP_ESTABLISHED, c.conn());
            u64(SID, c.sid());
            connectOutcome(c.outcome());
        } else if (e instanceof Event.TcpAccept a) {
            u64(TCP_ACCEPT, a.conn());
            bool(BLOCKING, a.blocking());
            put(OUTCOME);
            if (a.outcome() instanceof TcpAcceptOutcome.Accepted ok) {
                u64(ACCEPTED, ok.sid());
                addr(SRC, ok.src());
                addr(DST, ok.dst());
                u64(SYN_NS, ok.synNs());
                put('}');
            } else {
                tagged(a.outcome().kind());
                put('}');
            }
        } else if (e instanceof Event.TcpAdopt a) {
            u64(TCP_ADOPT, a.conn());
            u64(SID, a.sid());
        } else if (e instanceof Event.TcpShutdown sh) {
            u64(TCP_SHUTDOWN, sh.conn());
            u64(SID, sh.sid());
            string(HOW, sh.how());
        } else if (e instanceof Event.TcpClose c) {
            u64(TCP_CLOSE, c.conn());
            u64(SID, c.sid());
            bool(RESET_MEMBER, c.reset());
        } else if (e instanceof Event.TcpReset r) {
            u64(TCP_RESET, r.sid());
            string(REASON, r.reason());
            u64(AT_NS, r.atNs());
        } else if (e instanceof Event.TcpPartition p) {
            u64(TCP_PARTITION, p.atNs());
            string(SPEC, p.spec());
        } else if (e instanceof Event.Signal g) {
            u64(SIGNAL_EVENT, g.node());
            string(SIGNAL, g.signal());
            string(REASON, g.reason());
        } else {
            throw new IllegalArgumentException("unknown event type " + e);
        }
    }

    private void connectOutcome(TcpConnectOutcome o) {
        put(OUTCOME);
        if (o instanceof TcpConnectOutcome.Established est) {
            u64(ESTABLISHED, est.estNs());
        } else if (o instanceof TcpConnectOutcome.Refused r) {
            u64(REFUSED, r.atNs());
        } else if (o instanceof TcpConnectOutcome.TimedOut t) {
            u64(TIMED_OUT, t.atNs());
        } else {
            tagged(o.kind());
        }
        put('}');
    }

    /** {@code {"kind":"<kind>"} without the closing brace (the variant's members, if any, follow). */
    private void tagged(String kind) {
        put(KIND_OPEN);
        string(kind);
    }

    private void bool(byte[] member, boolean v) {
        put(member);
        put(v ? TRUE : FALSE);
    }

    private void sendOutcome(SendOutcome o) {
        if (o instanceof SendOutcome.Enqueued q) {
            u64(ENQUEUED, q.toConn());
            u64(DELIV_NS, q.delivNs());
            u64(TIE, q.tie());
            put('}');
        } else if (o instanceof SendOutcome.Dropped) {
            put(DROPPED);
        } else if (o instanceof SendOutcome.NoReceiver) {
            put(NO_RECEIVER);
        } else {
            throw new IllegalArgumentException("unknown send outcome " + o);
        }
    }

    private void recvOutcome(RecvOutcome o) {
        if (o instanceof RecvOutcome.Delivered d) {
            addr(DELIVERED, d.src());
            addr(DST, d.dst());
            u64(DELIV_NS, d.delivNs());
            u64(TIE, d.tie());
            string(PAYLOAD, d.payload());
            put('}');
        } else if (o instanceof RecvOutcome.Empty) {
            put(EMPTY);
        } else {
            throw new IllegalArgumentException("unknown recv outcome " + o);
        }
    }

    // A member is its literal (the name with the separator before it, or an object's opening) then its value.

    private void u64(byte[] member, long v) {
        put(member);
        u64(v);
    }

    private void string(byte[] member, String s) {
        put(member);
        string(s);
    }

    private void addr(byte[] member, VAddr a) {
        put(member);
        u64(IP, a.ip());
        u64(PORT, a.port());
        put('}');
    }

    /** The header line exactly as the reference writer emits it (§3), without terminator. */
    void header(long seed, String net, long windowNs, LogMeta meta) {
        u64(HEADER_START, seed);
        string(NET, net);
        u64(WINDOW_NS, windowNs);
        put(META);
        if (meta != null) {
            // The members present, comma-separated, in this order.
            boolean first = true;
            if (meta.recordedUnixMs() != null) {
                u64(RECORDED_UNIX_MS, meta.recordedUnixMs());
                first = false;
            }
            first = metaString(first, WEFT_VERSION, meta.weftVersion());
            first = metaString(first, LABEL, meta.label());
            first = metaString(first, HOSTS, meta.hosts()); // ours, after the spec's members (weft-log-format.md)
            metaString(first, PLAN, meta.plan()); // ours: the fault plan's digest (docs/fault-plans.md)
        }
        put('}');
        put('}');
    }

    /** Writes an optional string member of meta (nothing when null); returns whether none has been written yet. */
    private boolean metaString(boolean first, byte[] name, String value) {
        if (value == null) {
            return first;
        }
        if (!first) {
            put(',');
        }
        string(name, value);
        return false;
    }
}
