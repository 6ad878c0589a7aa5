package dev.weft.launcher.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A shrink's deviations are every entry a plan can name — datagram latencies and drops, and TCP segment trips. */
class PlanDeviationTest {
    static final VAddr A = new VAddr(0x7f000001L, 4000);
    static final VAddr B = new VAddr(0x7f000002L, 4001);

    static FaultPlan whole() throws Exception {
        return new FaultPlan("latency=uniform:1000-9000", dev.weft.net.NetSpec.parse("latency=uniform:1000-9000"),
                Map.of(new FaultPlan.DatagramId(A, B, 0), new FaultModel.Fate(true, 0),
                        new FaultPlan.DatagramId(B, A, 3), new FaultModel.Fate(false, 7000)),
                Map.of(new FaultPlan.SegmentId(B, A, 1), new FaultPlan.SegmentTrip(2, 4000)));
    }

    @Test
    void datagramsThenSegmentsEachInThePlansOrder() throws Exception {
        List<PlanDeviation> all = PlanDeviation.of(whole());
        assertEquals(3, all.size());
        assertTrue(all.get(0) instanceof PlanDeviation.Datagram d && d.deviation().fate().dropped(), all.toString());
        assertTrue(all.get(1) instanceof PlanDeviation.Datagram d && d.deviation().fate().delayNs() == 7000);
        assertTrue(all.get(2) instanceof PlanDeviation.Segment s && s.deviation().trip().lostAttempts() == 2);
    }

    @Test
    void aCandidateNamesExactlyItsDeviationsOverTheWholePlansNet() throws Exception {
        FaultPlan whole = whole();
        List<PlanDeviation> all = PlanDeviation.of(whole);
        assertEquals(FaultPlanJson.write(whole), FaultPlanJson.write(PlanDeviation.plan(whole, all)));
        // the segment alone: a version-2 plan naming one segment and no datagram
        FaultPlan segmentOnly = PlanDeviation.plan(whole, List.of(all.get(2)));
        assertEquals(List.of(), segmentOnly.deviations());
        assertEquals(1, segmentOnly.segmentDeviations().size());
        FaultPlan reread = FaultPlanJson.parse(FaultPlanJson.write(segmentOnly).getBytes(StandardCharsets.UTF_8));
        assertEquals(segmentOnly.segmentDeviations(), reread.segmentDeviations());
        // the drop alone: a version-1 plan, as before segments existed
        String dropOnly = FaultPlanJson.write(PlanDeviation.plan(whole, List.of(all.get(0))));
        assertTrue(dropOnly.startsWith("{\"format\":\"weft-plan\",\"version\":1,\"net\":\"latency=uniform:1000-9000\""),
                dropOnly);
        assertTrue(dropOnly.contains("\"drop\":true"), dropOnly);
        assertEquals("latency=uniform:1000-9000", PlanDeviation.plan(whole, List.of()).net());
    }

    /** A scenario's events are deviations too: taken away, they do not happen (the candidate names none of them). */
    @Test
    void aScenariosEventsAreDeviationsThatCanAllBeTakenAway() throws Exception {
        List<dev.weft.scenario.ScenarioEvent> events = List.of(
                new dev.weft.scenario.ScenarioEvent(8_000_000_000L,
                        new dev.weft.scenario.ScenarioAction.ActivatePartition("0|1")),
                new dev.weft.scenario.ScenarioEvent(20_000_000_000L, new dev.weft.scenario.ScenarioAction.ClearPartition()));
        FaultPlan whole = whole().withEvents(events);
        List<PlanDeviation> all = PlanDeviation.of(whole);
        assertEquals(5, all.size());
        assertTrue(all.get(0) instanceof PlanDeviation.Event e && e.index() == 0, all.toString());
        assertEquals(FaultPlanJson.write(whole), FaultPlanJson.write(PlanDeviation.plan(whole, all)));
        // only the heal kept: the partition is gone, and the plan says so with its own (one-event) list
        FaultPlan healOnly = PlanDeviation.plan(whole, List.of(all.get(1)));
        assertEquals(List.of(events.get(1)), healOnly.events());
        // nothing kept: an empty list, not "no events named" (which would leave the scenario's partition in place)
        assertEquals(List.of(), PlanDeviation.plan(whole, List.of()).events());
        // a plan without events leaves the run's alone
        assertEquals(null, PlanDeviation.plan(whole(), List.of()).events());
    }
}
