package dev.weft.broker;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code weft run --stats} reports about the broker: operations by kind, drops, queue depths, and two
 * latency histograms — the virtual delivery latency the fault model gave each enqueued datagram, and the real
 * time the broker spent serving each request (from a decoded frame to its reply written).
 */
public final class BrokerStats {
    long connects;
    long hellos;
    long binds;
    long sends;
    long dropped;
    long noReceiver;
    long partitionCuts;
    long recvDelivered;
    long recvEmpty;
    long recvBlockedWaits;
    long disconnects;
    long protocolErrors;
    long maxQueueDepth;
    long tcpOps;
    long tcpConnects;
    long tcpSegments;
    long tcpBytesWritten;
    long tcpBytesRead;
    long tcpHeldWaits;
    long queueDepthSum;
    final LatencyHistogram virtualDelivery = new LatencyHistogram();
    final LatencyHistogram service = new LatencyHistogram();

    /** The report lines, in a fixed order (no timing-dependent ordering). */
    public List<String> lines() {
        List<String> l = new ArrayList<>();
        long ops = connects + hellos + binds + sends + recvDelivered + recvEmpty + disconnects;
        l.add("[weft] broker: " + ops + " recorded op(s): " + connects + " connect, " + hellos + " hello, " + binds
                + " bind, " + sends + " send, " + (recvDelivered + recvEmpty) + " recv (" + recvDelivered
                + " delivered, " + recvEmpty + " empty), " + disconnects + " disconnect");
        l.add("[weft] broker: datagrams: " + sends + " sent, " + dropped + " dropped by the fault model, " + noReceiver
                + " with no receiver" + (partitionCuts > 0 ? ", " + partitionCuts
                + " cut by scenario partitions (not in the log)" : "") + "; " + recvBlockedWaits
                + " blocking recv(s) had to wait; " + protocolErrors + " protocol error(s)");
        if (tcpOps > 0) {
            l.add("[weft] broker: tcp: " + tcpOps + " recorded op(s), " + tcpConnects + " connect(s), " + tcpSegments
                    + " segment(s), " + tcpBytesWritten + " byte(s) written, " + tcpBytesRead + " byte(s) read; "
                    + tcpHeldWaits + " request(s) had to wait");
        }
        long enq = virtualDelivery.count();
        l.add("[weft] broker: queue depth after each enqueue: max " + maxQueueDepth + ", mean "
                + (enq == 0 ? "0" : String.format(java.util.Locale.ROOT, "%.2f", (double) queueDepthSum / enq)));
        l.add("[weft] broker: virtual delivery latency (ns, " + enq + " datagrams): " + summary(virtualDelivery));
        l.add("[weft] broker: real service time (ns, " + service.count() + " requests): " + summary(service));
        return l;
    }

    private static String summary(LatencyHistogram h) {
        return "p50 " + Long.toUnsignedString(h.percentile(0.50)) + ", p99 " + Long.toUnsignedString(h.percentile(0.99))
                + ", p99.9 " + Long.toUnsignedString(h.percentile(0.999)) + ", max " + Long.toUnsignedString(h.max());
    }
}
