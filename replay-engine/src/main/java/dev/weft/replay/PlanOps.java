package dev.weft.replay;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.log.WeftLogException;
import dev.weft.net.FaultPlan;
import dev.weft.scenario.ScenarioEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a fault plan's deviations happened in a recording: for each datagram the plan names, the op of the send
 * that sent it (found by the key {@code weft plan} names it by, {@link PlanExtractor#idOf}) and the op of the
 * receive that delivered it. A deviation the recording never reached has neither. A timed event of the plan
 * (partition, heal, crash, start) sits on the first op at or after its virtual time. TCP segments are not placed: a
 * segment's records show its delivery, not which segment of the plan it was.
 */
public final class PlanOps {

    /** One deviation and its ops; -1 where the recording has no such op (not sent, or never delivered). */
    public record Placed(FaultPlan.Deviation deviation, long sendOp, long deliverOp) {
    }

    /** A timed event and the first op at or after its time (-1: the recording ended before it). */
    public record PlacedEvent(ScenarioEvent event, long op) {
    }

    /** The plan's datagram deviations (in its order) and its events (in its order), each placed. */
    public record Placement(List<Placed> datagrams, List<PlacedEvent> events) {
    }

    private PlanOps() {
    }

    /** Reads the recording once; the datagrams as {@link #place} places them, and the plan's events. */
    public static Placement placeAll(FaultPlan plan, LogReader reader) throws WeftLogException {
        List<ScenarioEvent> events = plan.events() == null ? List.of() : plan.events();
        long[] eventOps = new long[events.size()];
        Arrays.fill(eventOps, -1);
        // the events by time (unsigned, as the format's u64), so one cursor walks them as the records' vt grows
        Integer[] byTime = new Integer[events.size()];
        for (int i = 0; i < byTime.length; i++) byTime[i] = i;
        Arrays.sort(byTime, Comparator.comparing((Integer i) -> events.get(i).timeNs(), Long::compareUnsigned));
        int[] next = {0};
        List<Placed> datagrams = place(plan, reader, r -> {
            while (next[0] < byTime.length && Long.compareUnsigned(events.get(byTime[next[0]]).timeNs(), r.vt()) <= 0) {
                eventOps[byTime[next[0]++]] = r.op();
            }
        });
        List<PlacedEvent> placedEvents = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) placedEvents.add(new PlacedEvent(events.get(i), eventOps[i]));
        return new Placement(datagrams, placedEvents);
    }

    /** Reads the recording once; the result is in the plan's (src, dst, chan_seq) order. */
    public static List<Placed> place(FaultPlan plan, LogReader reader) throws WeftLogException {
        return place(plan, reader, r -> { });
    }

    private static List<Placed> place(FaultPlan plan, LogReader reader, java.util.function.Consumer<LogRecord> alsoSee)
            throws WeftLogException {
        Map<FaultPlan.DatagramId, FaultPlan.Deviation> wanted = new HashMap<>();
        for (FaultPlan.Deviation d : plan.deviations()) wanted.put(d.id(), d);
        Map<FaultPlan.DatagramId, Long> sendOps = new HashMap<>();
        // A delivery names its datagram by channel, delivery time and tie-break, as its enqueued send recorded them.
        Map<Delivery, FaultPlan.DatagramId> awaited = new HashMap<>();
        Map<FaultPlan.DatagramId, Long> deliverOps = new HashMap<>();
        for (LogRecord r = reader.next(); r != null; r = reader.next()) {
            alsoSee.accept(r);
            if (r.event() instanceof Event.Send s) {
                FaultPlan.DatagramId id = PlanExtractor.idOf(s);
                if (!wanted.containsKey(id)) continue;
                sendOps.putIfAbsent(id, r.op());
                if (s.outcome() instanceof SendOutcome.Enqueued e) {
                    awaited.put(new Delivery(s.src(), s.dst(), e.delivNs(), e.tie()), id);
                }
            } else if (r.event() instanceof Event.Recv v && v.outcome() instanceof RecvOutcome.Delivered d) {
                FaultPlan.DatagramId id = awaited.remove(new Delivery(d.src(), d.dst(), d.delivNs(), d.tie()));
                if (id != null) deliverOps.put(id, r.op());
            }
        }
        List<Placed> out = new ArrayList<>();
        for (FaultPlan.Deviation d : plan.deviations()) {
            out.add(new Placed(d, sendOps.getOrDefault(d.id(), -1L), deliverOps.getOrDefault(d.id(), -1L)));
        }
        return out;
    }

    private record Delivery(VAddr src, VAddr dst, long delivNs, long tie) {
    }
}
