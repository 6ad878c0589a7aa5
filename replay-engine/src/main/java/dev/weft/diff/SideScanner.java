package dev.weft.diff;

import dev.weft.check.InvariantMonitor;
import dev.weft.check.Invariants;
import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one side's records as they stream past: counts the summary figures, runs the fifo and dup invariants, and
 * turns each delivery into what its node saw (the node comes from the connection's hello).
 */
final class SideScanner {

    private final InvariantMonitor monitor =
            new InvariantMonitor(Invariants.instantiate(List.of("fifo", "dup")));
    private final Map<Long, Long> nodeOfConn = new HashMap<>();
    private final Map<Long, Long> deliveriesPerNode = new HashMap<>();
    private long ops;
    private long deliveries;
    private long drops;
    private long violations;

    /** Accounts for one record; returns the delivery a node saw in it, or null. */
    NodeDelivery offer(LogRecord r) {
        ops++;
        violations += monitor.offer(r.op(), r.vt(), r.event());
        Event e = r.event();
        if (e instanceof Event.Hello h) {
            nodeOfConn.put(h.conn(), h.node());
        } else if (e instanceof Event.Send s && s.outcome() instanceof SendOutcome.Dropped) {
            drops++;
        } else if (e instanceof Event.Violation) {
            violations++;
        } else if (e instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d) {
            deliveries++;
            Long hello = nodeOfConn.get(rv.conn());
            long node = hello != null ? hello : d.dst().nodeOf();
            long index = deliveriesPerNode.merge(node, 1L, Long::sum) - 1;
            // Hex payloads may be written in either case (weft-log-v2 §5); the node sees the same bytes.
            String text = "from " + d.src().text() + " payload " + d.payload().toLowerCase(java.util.Locale.ROOT);
            return new NodeDelivery(node, index, r.op(), r.vt(), text);
        }
        return null;
    }

    SideSummary summary() {
        return new SideSummary(ops, deliveries, drops, violations);
    }
}
