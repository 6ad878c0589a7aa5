package dev.weft.findings;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Each node's TCP writes and connects by the time its program made them (their {@code send_vt}), to place a client's
 * history operation on the op where it went out. A windowed run records a TCP record when its window is sealed,
 * which can be seconds after the program wrote (a node cut off by a partition holds the window back), so the first op
 * at or after an operation's invocation time can be far from the operation's own request; its send is not.
 * A connection's node is the one its first hello names, as the timeline's lanes have it.
 */
public final class TcpSends {

    /** No TCP at all: every question answers -1. */
    public static final TcpSends NONE = new TcpSends(Map.of());

    /** Per node: send times ascending, and the op of each. */
    private final Map<Long, long[][]> byNode;

    private TcpSends(Map<Long, long[][]> byNode) {
        this.byNode = byNode;
    }

    /** The op of node's first TCP write or connect made at or after {@code t}, or -1 when it made none. */
    public int firstAtOrAfter(long node, long t) {
        long[][] s = byNode.get(node);
        if (s == null) {
            return -1;
        }
        int i = Arrays.binarySearch(s[0], t);
        if (i < 0) {
            i = -i - 1;
        } else {
            while (i > 0 && s[0][i - 1] == t) i--;
        }
        return i < s[0].length ? (int) s[1][i] : -1;
    }

    /** Takes records in op order; a send may come before its connection's hello. */
    public static final class Builder {
        private final Map<Long, Long> nodeOfConn = new HashMap<>();
        private long[] sends = new long[3 * 64];   // flat (conn, sendVt, op) triples, op order
        private int count;

        public Builder add(LogRecord r) {
            Event e = r.event();
            if (e instanceof Event.Hello h) {
                nodeOfConn.putIfAbsent(h.conn(), h.node());
                return this;
            }
            long conn, sent;
            if (e instanceof Event.TcpSend s) {
                conn = s.conn();
                sent = s.sendVt();
            } else if (e instanceof Event.TcpConnect c) {
                conn = c.conn();
                sent = c.sendVt();
            } else {
                return this;
            }
            if (3 * count + 3 > sends.length) sends = Arrays.copyOf(sends, sends.length * 2);
            sends[3 * count] = conn;
            sends[3 * count + 1] = sent;
            sends[3 * count + 2] = r.op();
            count++;
            return this;
        }

        public TcpSends build() {
            Map<Long, long[]> pairs = new HashMap<>();   // node -> flat (sendVt, op) pairs, op order
            Map<Long, Integer> counts = new HashMap<>();
            for (int i = 0; i < count; i++) {
                Long node = nodeOfConn.get(sends[3 * i]);
                if (node == null) continue;            // a connection no hello names is no node's
                long[] a = pairs.computeIfAbsent(node, k -> new long[64]);
                int n = counts.getOrDefault(node, 0);
                if (2 * n + 2 > a.length) {
                    a = Arrays.copyOf(a, a.length * 2);
                    pairs.put(node, a);
                }
                a[2 * n] = sends[3 * i + 1];
                a[2 * n + 1] = sends[3 * i + 2];
                counts.put(node, n + 1);
            }
            Map<Long, long[][]> out = new HashMap<>();   // looked up by node only, never iterated for output
            for (Map.Entry<Long, long[]> p : pairs.entrySet()) {
                int n = counts.get(p.getKey());
                Integer[] order = new Integer[n];
                for (int i = 0; i < n; i++) order[i] = i;
                long[] a = p.getValue();
                // by send time, then op: a node's sends are in op order already unless its threads interleave
                Arrays.sort(order, (x, y) -> a[2 * x] != a[2 * y] ? Long.compare(a[2 * x], a[2 * y])
                        : Long.compare(a[2 * x + 1], a[2 * y + 1]));
                long[] times = new long[n];
                long[] ops = new long[n];
                for (int i = 0; i < n; i++) {
                    times[i] = a[2 * order[i]];
                    ops[i] = a[2 * order[i] + 1];
                }
                out.put(p.getKey(), new long[][] {times, ops});
            }
            return new TcpSends(out);
        }
    }
}
