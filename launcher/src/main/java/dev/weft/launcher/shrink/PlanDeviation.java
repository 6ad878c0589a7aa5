package dev.weft.launcher.shrink;

import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * One deviation of a fault plan, the unit a shrink takes away: a datagram's fate (a latency or a drop) or a TCP
 * segment's trip (lost attempts, latency). Taken away, it falls back to the baseline (docs/fault-plans.md).
 */
sealed interface PlanDeviation {

    record Datagram(FaultPlan.Deviation deviation) implements PlanDeviation {
    }

    record Segment(FaultPlan.SegmentDeviation deviation) implements PlanDeviation {
    }

    /** Every deviation of {@code plan}: its datagrams, then its segments, each in the plan's own order. */
    static List<PlanDeviation> of(FaultPlan plan) {
        List<PlanDeviation> all = new ArrayList<>();
        plan.deviations().forEach(d -> all.add(new Datagram(d)));
        plan.segmentDeviations().forEach(s -> all.add(new Segment(s)));
        return all;
    }

    /** The plan over {@code base}'s net that names exactly {@code deviations}. */
    static FaultPlan plan(FaultPlan base, List<PlanDeviation> deviations) {
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> datagrams = new TreeMap<>();
        TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> segments = new TreeMap<>();
        for (PlanDeviation d : deviations) {
            if (d instanceof Datagram g) {
                datagrams.put(g.deviation().id(), g.deviation().fate());
            } else if (d instanceof Segment s) {
                segments.put(s.deviation().id(), s.deviation().trip());
            }
        }
        return new FaultPlan(base.net(), base.spec(), datagrams, segments);
    }
}
