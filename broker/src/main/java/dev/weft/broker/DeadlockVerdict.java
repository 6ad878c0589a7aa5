package dev.weft.broker;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The broker's verdict that a run can never go on (docs/broker.md, "The deadlock verdict"): every live node waits
 * with no deadline and nothing is in flight or scheduled. Names each node, in id order, and what it waits in.
 *
 * @param waits node id → what it waits in (e.g. {@code recv on 127.0.0.1:7000}), sorted by node id
 * @param vt    the core's vt when the verdict was given
 */
public record DeadlockVerdict(SortedMap<Long, String> waits, long vt) {
    /** The invariant name of the verdict's {@code violation} record. */
    public static final String INVARIANT = "deadlock";

    public DeadlockVerdict {
        TreeMap<Long, String> sorted = new TreeMap<>(Long::compareUnsigned);
        sorted.putAll(waits);
        waits = java.util.Collections.unmodifiableSortedMap(sorted);
    }

    /** {@code node 0 waits in recv on 127.0.0.1:7000; node 3 waits in …} (the violation record's message). */
    public String message() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<Long, String> e : waits.entrySet()) {
            sb.append(sb.length() == 0 ? "" : "; ").append("node ").append(Long.toUnsignedString(e.getKey()))
                    .append(" waits in ").append(e.getValue());
        }
        return sb.toString();
    }

    /** The one line {@code weft run} prints: {@code deadlock: node 0 waits in …}. */
    public String line() {
        return "deadlock: " + message();
    }
}
