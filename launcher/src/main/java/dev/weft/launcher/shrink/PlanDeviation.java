package dev.weft.launcher.shrink;

import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.scenario.ScenarioEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * One deviation of a fault plan, the unit a shrink takes away: a datagram's fate (a latency or a drop), a TCP
 * segment's trip (lost attempts, latency), or a timed event (a partition, a heal, a crash, a start). Taken away, a
 * fate falls back to the baseline and an event does not happen (docs/fault-plans.md).
 */
sealed interface PlanDeviation {

    record Datagram(FaultPlan.Deviation deviation) implements PlanDeviation {
    }

    record Segment(FaultPlan.SegmentDeviation deviation) implements PlanDeviation {
    }

    /** The plan's event number {@code index} (events keep their order in the plan, which is time order). */
    record Event(int index, ScenarioEvent event) implements PlanDeviation {
    }

    /** Every deviation of {@code plan}: its events, then its datagrams, then its segments, each in the plan's order. */
    static List<PlanDeviation> of(FaultPlan plan) {
        List<PlanDeviation> all = new ArrayList<>();
        if (plan.events() != null) {
            for (int i = 0; i < plan.events().size(); i++) all.add(new Event(i, plan.events().get(i)));
        }
        plan.deviations().forEach(d -> all.add(new Datagram(d)));
        plan.segmentDeviations().forEach(s -> all.add(new Segment(s)));
        return all;
    }

    /**
     * The plan over {@code base}'s net that names exactly {@code deviations}. When {@code base} names events (a
     * scenario's), the candidate names the events among {@code deviations} — possibly none, so that taking every
     * event away really runs without them — else it leaves the run's events alone.
     */
    static FaultPlan plan(FaultPlan base, List<PlanDeviation> deviations) {
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> datagrams = new TreeMap<>();
        TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> segments = new TreeMap<>();
        TreeMap<Integer, ScenarioEvent> events = new TreeMap<>();
        for (PlanDeviation d : deviations) {
            if (d instanceof Datagram g) {
                datagrams.put(g.deviation().id(), g.deviation().fate());
            } else if (d instanceof Segment s) {
                segments.put(s.deviation().id(), s.deviation().trip());
            } else if (d instanceof Event e) {
                events.put(e.index(), e.event());
            }
        }
        return new FaultPlan(base.net(), base.spec(), datagrams, segments,
                base.events() == null ? null : List.copyOf(events.values()));
    }
}
