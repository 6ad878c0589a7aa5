package dev.weft.replay;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.SendOutcome;
import dev.weft.log.WeftLogException;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.NetSpecException;
import java.util.TreeMap;

/**
 * The fault plan a recording followed (docs/fault-plans.md "weft plan"): every datagram whose recorded fate differs
 * from the baseline. A dropped send is a drop; an enqueued one's latency is its delivery minus its send time. A send
 * that found no receiver shows no latency and keeps the baseline (its outcome is the same under any delivering fate).
 */
public final class PlanExtractor {

    private PlanExtractor() {
    }

    /** Thrown for a recording whose fates a plan of format 1 cannot name (TCP segments). */
    public static final class Unsupported extends Exception {
        public Unsupported(String message) {
            super(message);
        }
    }

    public static FaultPlan extract(LogReader reader) throws WeftLogException, NetSpecException, Unsupported {
        String net = reader.header().net();
        FaultPlan baseline = FaultPlan.of(net, new TreeMap<>());
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        for (LogRecord r = reader.next(); r != null; r = reader.next()) {
            if (r.event() instanceof Event.TcpRecord) {
                throw new Unsupported("op " + r.op() + " is a TCP record: plan format 1 names datagram fates only, "
                        + "not TCP segments");
            }
            if (!(r.event() instanceof Event.Send s)) continue;
            FaultModel.Fate fate;
            if (s.outcome() instanceof SendOutcome.Dropped) {
                fate = new FaultModel.Fate(true, 0);
            } else if (s.outcome() instanceof SendOutcome.Enqueued e) {
                fate = new FaultModel.Fate(false, e.delivNs() - s.sendVt());
            } else {
                continue;
            }
            if (!fate.equals(baseline.baseline(s.payload().length() / 2))) {
                named.put(new FaultPlan.DatagramId(s.src(), s.dst(), s.chanSeq()), fate);
            }
        }
        return new FaultPlan(net, baseline.spec(), named);
    }
}
