package dev.weft.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.FateSource;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.net.NetSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan of a TCP recording names its segments' trips (lost attempts, latency), and the recording replays
 * identically under that plan instead of the seed: the plan is the recording's network, segments included.
 */
class PlanExtractorTcpTest {

    private static final String NET = "latency=uniform:1000000-3000000,loss=0.3";
    private static final VAddr SERVER = VAddr.ofNode(1, 7000);

    @TempDir
    Path dir;

    /** Twenty writes over one stream, each read at once, with the fates from {@code fates}. */
    private Path record(String name, FateSource fates) throws Exception {
        Path log = dir.resolve(name);
        Core core = new Core(fates);
        try (LogWriter w = LogWriter.create(log, 9, NET, 0, LogMeta.EMPTY)) {
            ScriptedRecording script = new ScriptedRecording(core, w);
            script.openStream(SERVER, 0);
            for (int i = 0; i < 20; i++) {
                script.write(ScriptedRecording.CLIENT, new byte[] {(byte) i, 1, 2}, 10_000_000L * (i + 1));
                script.read(ScriptedRecording.SERVER_END, 100);
            }
            script.record(new Event.End(47, 0, 0));
        }
        return log;
    }

    private static FaultPlan planOf(Path log) throws Exception {
        try (LogReader r = LogReader.open(log)) {
            return PlanExtractor.extract(r);
        }
    }

    private static List<Event> events(Path log) throws Exception {
        List<Event> out = new java.util.ArrayList<>();
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec = r.next(); rec != null; rec = r.next()) out.add(rec.event());
        }
        return out;
    }

    @Test
    void aTcpRecordingsPlanNamesItsSegmentsAndReproducesIt() throws Exception {
        Path seeded = record("seeded.weftlog", FaultModel.of(9, NET));
        FaultPlan plan = planOf(seeded);
        assertTrue(plan.deviations().isEmpty(), "no datagrams in this run");
        List<FaultPlan.SegmentDeviation> segs = plan.segmentDeviations();
        assertTrue(segs.size() > 15, "latencies above the minimum: " + segs);
        assertTrue(segs.stream().anyMatch(d -> d.trip().lostAttempts() > 0), "loss 0.3 loses some attempts: " + segs);
        assertTrue(segs.stream().anyMatch(d -> d.id().from().equals(SERVER)), "the SYN-ACK direction too: " + segs);
        // The document round-trips, and the recording made under the plan is the seeded one, record for record.
        FaultPlan back = FaultPlanJson.parse(FaultPlanJson.write(plan).getBytes(StandardCharsets.UTF_8));
        assertEquals(events(seeded), events(record("planned.weftlog", back)));
        // The plan of the planned recording (extracted with the plan it followed) is the same plan.
        try (LogReader r = LogReader.open(dir.resolve("planned.weftlog"))) {
            assertEquals(FaultPlanJson.write(plan), FaultPlanJson.write(PlanExtractor.extract(r, back)));
        }
    }

    @Test
    void takingASegmentsDeviationAwayGivesItTheBaseline() throws Exception {
        FaultPlan plan = planOf(record("seeded.weftlog", FaultModel.of(9, NET)));
        FaultPlan.SegmentDeviation lossy = plan.segmentDeviations().stream()
                .filter(d -> d.trip().lostAttempts() > 0).findFirst().orElseThrow();
        TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> fewer = new TreeMap<>(plan.namedSegments());
        fewer.remove(lossy.id());
        FaultPlan smaller = new FaultPlan(NET, NetSpec.parse(NET), Map.of(), fewer);
        Path log = record("smaller.weftlog", smaller);
        assertNotEquals(events(dir.resolve("seeded.weftlog")), events(log));
        assertEquals(fewer, planOf2(log, smaller).namedSegments(), "exactly the taken deviation is gone");
    }

    private static FaultPlan planOf2(Path log, FaultPlan followed) throws Exception {
        try (LogReader r = LogReader.open(log)) {
            return PlanExtractor.extract(r, followed);
        }
    }
}
