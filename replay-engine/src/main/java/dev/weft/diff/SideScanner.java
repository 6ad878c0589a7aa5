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
 * turns each delivery and send into what its node saw or did (the node comes from the connection's hello). Empty
 * receives are left out: when a poll finds nothing is the schedule's business, not something a node was told.
 */
final class SideScanner {

    private final InvariantMonitor monitor =
            new InvariantMonitor(Invariants.instantiate(List.of("fifo", "dup")));
    private final Map<Long, Long> nodeOfConn = new HashMap<>();
    private final Map<Long, Long> eventsPerNode = new HashMap<>();
    private final Map<Long, Long> deliveriesPerNode = new HashMap<>();
    private final Map<Long, Long> sendsPerNode = new HashMap<>();
    private long ops;
    private long deliveries;
    private long drops;
    private long violations;

    /** Accounts for one record; returns the delivery or send a node saw or did in it, or null. */
    NodeDelivery offer(LogRecord r) {
        ops++;
        violations += monitor.offer(r.op(), r.vt(), r.event());
        Event e = r.event();
        if (e instanceof Event.Hello h) {
            nodeOfConn.put(h.conn(), h.node());
        } else if (e instanceof Event.Send s) {
            if (s.outcome() instanceof SendOutcome.Dropped) drops++;
            Long hello = nodeOfConn.get(s.conn());
            long node = hello != null ? hello : s.src().nodeOf();
            String hex = s.payload().toLowerCase(java.util.Locale.ROOT);
            return new NodeDelivery(node, eventsPerNode.merge(node, 1L, Long::sum) - 1, r.op(), r.vt(),
                    "to " + s.dst().text() + " payload " + hex, NodeDelivery.Kind.SEND, sendsPerNode.merge(node, 1L, Long::sum) - 1, hex);
        } else if (e instanceof Event.Violation) {
            violations++;
        } else if (e instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d) {
            deliveries++;
            Long hello = nodeOfConn.get(rv.conn());
            long node = hello != null ? hello : d.dst().nodeOf();
            // Hex payloads may be written in either case (weft-log-v2 §5); the node sees the same bytes.
            String hex = d.payload().toLowerCase(java.util.Locale.ROOT);
            return new NodeDelivery(node, eventsPerNode.merge(node, 1L, Long::sum) - 1, r.op(), r.vt(),
                    "from " + d.src().text() + " payload " + hex, NodeDelivery.Kind.DELIVERY,
                    deliveriesPerNode.merge(node, 1L, Long::sum) - 1, hex);
        }
        return null;
    }

    SideSummary summary() {
        return new SideSummary(ops, deliveries, drops, violations);
    }
}
