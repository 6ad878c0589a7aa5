package dev.weft.app.vm;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.timeline.TimelineModel;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Each node's TCP writes and connects by the time its program made them (their {@code send_vt}), to place a client's
 * history operation on the op where it went out. A windowed run records a TCP record when its window is sealed,
 * which can be seconds after the program wrote (a node cut off by a partition holds the window back), so the first op
 * at or after an operation's invocation time can be far from the operation's own request; its send is not.
 */
final class TcpSendTimes {

    /** Per node: send times ascending, and the op of each. */
    private final Map<Long, long[][]> byNode;

    private TcpSendTimes(Map<Long, long[][]> byNode) {
        this.byNode = byNode;
    }

    /** Reads every record once; empty when the recording has no TCP. */
    static TcpSendTimes of(TimelineModel timeline, IntFunction<LogRecord> records) {
        Map<Long, long[][]> out = new HashMap<>();
        if (records == null || !timeline.hasTcp()) {
            return new TcpSendTimes(out);
        }
        Map<Long, long[]> pairs = new HashMap<>();   // node -> flat (sendVt, op) pairs, op order
        Map<Long, Integer> counts = new HashMap<>();
        for (int op = 0; op < timeline.size(); op++) {
            Event e = records.apply(op).event();
            long sent = e instanceof Event.TcpSend s ? s.sendVt() : e instanceof Event.TcpConnect c ? c.sendVt() : -1;
            Long node = nodeOfLane(timeline, op);
            if (sent < 0 || node == null) {
                continue;
            }
            long[] a = pairs.computeIfAbsent(node, k -> new long[64]);
            int n = counts.getOrDefault(node, 0);
            if (2 * n + 2 > a.length) {
                a = Arrays.copyOf(a, a.length * 2);
                pairs.put(node, a);
            }
            a[2 * n] = sent;
            a[2 * n + 1] = op;
            counts.put(node, n + 1);
        }
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
        return new TcpSendTimes(out);
    }

    private static Long nodeOfLane(TimelineModel timeline, int op) {
        String label = timeline.lanes().get(timeline.lane(op)).label();
        if (!label.startsWith("node ")) {
            return null;
        }
        try {
            return Long.parseLong(label.substring(5).trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** The op of node's first TCP write or connect made at or after {@code t}, or -1 when it made none. */
    int firstAtOrAfter(long node, long t) {
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
}
