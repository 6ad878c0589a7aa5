package dev.weft.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.testcorpus.OwnCorpus;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A plan's deviations placed on the ops of a recording: each at its send, and at the receive that delivered it. */
class PlanOpsTest {

    private static List<LogRecord> records(Path log) throws Exception {
        List<LogRecord> all = new ArrayList<>();
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) all.add(rec);
        }
        return all;
    }

    @Test
    void everyExtractedDeviationSitsOnItsSendAndTheReceiveOfTheSameDatagram() throws Exception {
        Path log = OwnCorpus.dir().resolve("chord/chord-fix0-s3-violation.weftlog");
        FaultPlan plan;
        try (LogReader r = LogReader.open(log)) {
            plan = PlanExtractor.extract(r);
        }
        List<PlanOps.Placed> placed;
        try (LogReader r = LogReader.open(log)) {
            placed = PlanOps.place(plan, r);
        }
        List<LogRecord> recs = records(log);
        assertEquals(plan.deviations(), placed.stream().map(PlanOps.Placed::deviation).toList(), "in the plan's order");
        int delivered = 0;
        for (PlanOps.Placed p : placed) {
            Event.Send s = (Event.Send) recs.get((int) p.sendOp()).event();
            assertEquals(p.deviation().id(), new FaultPlan.DatagramId(s.src(), s.dst(), s.chanSeq()));
            if (p.deliverOp() >= 0) {
                delivered++;
                assertTrue(p.deliverOp() > p.sendOp());
                RecvOutcome.Delivered d = (RecvOutcome.Delivered) ((Event.Recv) recs.get((int) p.deliverOp()).event()).outcome();
                SendOutcome.Enqueued e = (SendOutcome.Enqueued) s.outcome();
                assertEquals(List.of(s.src(), s.dst(), e.delivNs(), e.tie()), List.of(d.src(), d.dst(), d.delivNs(), d.tie()));
                assertEquals(e.delivNs() - s.sendVt(), p.deviation().fate().delayNs());
            }
        }
        assertTrue(delivered > 0, "a Chord run delivers some late datagrams");
    }

    @Test
    void aDatagramTheRecordingNeverSentHasNoOps() throws Exception {
        Path log = OwnCorpus.dir().resolve("pingpong/pp-uniform1000-50000-s2.weftlog");
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        named.put(new FaultPlan.DatagramId(new VAddr(0x7f000009L, 1), new VAddr(0x7f000001L, 4000), 0), new FaultModel.Fate(true, 0));
        FaultPlan plan;
        try (LogReader r = LogReader.open(log)) {
            plan = FaultPlan.of(r.header().net(), named);
        }
        try (LogReader r = LogReader.open(log)) {
            PlanOps.Placed p = PlanOps.place(plan, r).get(0);
            assertEquals(-1, p.sendOp());
            assertEquals(-1, p.deliverOp());
        }
    }
    @Test
    void eachEventSitsOnTheFirstOpAtOrAfterItsTimeInWhateverOrderThePlanGivesThem() throws Exception {
        Path log = OwnCorpus.dir().resolve("pingpong/pp-uniform1000-50000-s2.weftlog");
        List<LogRecord> recs = records(log);
        long mid = recs.get(recs.size() / 2).vt();
        long expected = recs.stream().filter(r -> r.vt() >= mid + 1).findFirst().map(LogRecord::op).orElse(-1L);
        var heal = new dev.weft.scenario.ScenarioEvent(Long.MAX_VALUE, new dev.weft.scenario.ScenarioAction.ClearPartition());
        var partition = new dev.weft.scenario.ScenarioEvent(mid + 1, new dev.weft.scenario.ScenarioAction.ActivatePartition("0|1"));
        var atStart = new dev.weft.scenario.ScenarioEvent(0, new dev.weft.scenario.ScenarioAction.ClearPartition());
        FaultPlan plan;
        try (LogReader r = LogReader.open(log)) {
            plan = FaultPlan.of(r.header().net(), new TreeMap<>()).withEvents(List.of(heal, partition, atStart));
        }
        try (LogReader r = LogReader.open(log)) {
            PlanOps.Placement placed = PlanOps.placeAll(plan, r);
            assertEquals(List.of(heal, partition, atStart), placed.events().stream().map(PlanOps.PlacedEvent::event).toList(),
                    "in the plan's order");
            assertEquals(List.of(-1L, expected, 0L), placed.events().stream().map(PlanOps.PlacedEvent::op).toList());
            assertTrue(placed.datagrams().isEmpty());
        }
    }
}
