package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.weft.core.Core;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The plan as a fate source (named fates, baseline elsewhere) and its document's format and errors. */
class FaultPlanTest {

    private static final VAddr A = VAddr.ofNode(0, 4000);
    private static final VAddr B = VAddr.ofNode(1, 4001);
    private static final String NET = "latency=uniform:1000-50000";

    private static FaultPlan plan(Map<FaultPlan.DatagramId, FaultModel.Fate> named) throws NetSpecException {
        return FaultPlan.of(NET, named);
    }

    @Test
    void namedDatagramsGetTheirFateAndEveryOtherTheBaseline() throws Exception {
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        named.put(new FaultPlan.DatagramId(A, B, 1), new FaultModel.Fate(true, 0));
        named.put(new FaultPlan.DatagramId(A, B, 2), new FaultModel.Fate(false, 42_000));
        Core core = new Core(plan(named));
        core.connect(1);
        core.bind(1, B);
        assertEquals(new SendOutcome.Enqueued(1, 1000, 0), core.send(A, B, new byte[3], 0).outcome());
        assertInstanceOf(SendOutcome.Dropped.class, core.send(A, B, new byte[3], 0).outcome());
        assertEquals(new SendOutcome.Enqueued(1, 42_000, 1), core.send(A, B, new byte[3], 0).outcome());
        // The reverse channel is a different one: its seq 1 is not named.
        assertEquals(new FaultModel.Fate(false, 1000), plan(named).fate(B, A, 1, 3));
        assertEquals(new FaultModel.Fate(false, 1000), plan(named).streamFate(0, A, B, 0, 0, 0));
    }

    @Test
    void namedSegmentsLoseTheirAttemptsThenArriveWithTheirLatency() throws Exception {
        TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> segments = new TreeMap<>();
        segments.put(new FaultPlan.SegmentId(A, B, 3), new FaultPlan.SegmentTrip(2, 9000));
        FaultPlan plan = new FaultPlan(NET, NetSpec.parse(NET), Map.of(), segments);
        assertEquals(new FaultModel.Fate(true, 0), plan.streamFate(7, A, B, 0, 3, 0));
        assertEquals(new FaultModel.Fate(true, 0), plan.streamFate(7, A, B, 0, 3, 1));
        assertEquals(new FaultModel.Fate(false, 9000), plan.streamFate(7, A, B, 0, 3, 2));
        // named by its addresses, whatever the stream's id: the other direction and the next segment are baseline
        assertEquals(new FaultModel.Fate(false, 1000), plan.streamFate(7, B, A, 1, 3, 0));
        assertEquals(new FaultModel.Fate(false, 1000), plan.streamFate(7, A, B, 0, 4, 0));
    }

    @Test
    void aPlanWithSegmentsIsVersionTwoAndRoundTrips() throws Exception {
        TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> segments = new TreeMap<>();
        segments.put(new FaultPlan.SegmentId(B, A, 1), new FaultPlan.SegmentTrip(0, 5000));
        segments.put(new FaultPlan.SegmentId(A, B, 0), new FaultPlan.SegmentTrip(1, 1000));
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        named.put(new FaultPlan.DatagramId(A, B, 3), new FaultModel.Fate(true, 0));
        FaultPlan back = writtenAndReadBack(new FaultPlan(NET, NetSpec.parse(NET), named, segments), """
                {"format":"weft-plan","version":2,"net":"latency=uniform:1000-50000","datagrams":[
                {"src":"127.0.0.1:4000","dst":"127.0.0.2:4001","chan_seq":3,"drop":true}
                ],"segments":[
                {"from":"127.0.0.1:4000","to":"127.0.0.2:4001","index":0,"latency_ns":1000,"lost_attempts":1},
                {"from":"127.0.0.2:4001","to":"127.0.0.1:4000","index":1,"latency_ns":5000}
                ]}
                """);
        assertEquals(segments, back.namedSegments());
        assertEquals(named, back.named());
    }

    @Test
    void segmentEntriesAreChecked() {
        String head = "{\"format\":\"weft-plan\",\"version\":2,\"net\":\"" + NET + "\",\"segments\":[";
        assertEquals("member segments[0].latency_ns: 999 is below the net spec's minimum latency 1000",
                problem(head + "{\"from\":\"127.0.0.1:1\",\"to\":\"127.0.0.2:2\",\"index\":1,\"latency_ns\":999}]}"));
        assertEquals("member segments[0].lost_attempts: 17 is more than 16 (a segment is sent at most 16 times)",
                problem(head + "{\"from\":\"127.0.0.1:1\",\"to\":\"127.0.0.2:2\",\"index\":1,\"latency_ns\":1000,"
                        + "\"lost_attempts\":17}]}"));
        assertEquals("member segments[0].index: missing",
                problem(head + "{\"from\":\"127.0.0.1:1\",\"to\":\"127.0.0.2:2\",\"latency_ns\":1000}]}"));
        assertEquals("member segments: needs version 2 (version 1 names datagrams only)",
                problem(head.replace("\"version\":2", "\"version\":1") + "]}"));
    }

    @Test
    void aPlansEventsRoundTripAndAreChecked() throws Exception {
        String doc = """
                {"format":"weft-plan","version":2,"net":"latency=uniform:1000-50000","datagrams":[],"events":[
                {"time_ns":8000000000,"action":{"type":"activate_partition","spec":"0+6|1+2"}},
                {"time_ns":20000000000,"action":{"type":"clear_partition"}},
                {"time_ns":30000000000,"action":{"type":"crash","node_id":1}}
                ]}
                """;
        FaultPlan p = FaultPlanJson.parse(doc.getBytes(StandardCharsets.UTF_8));
        assertEquals(3, p.events().size());
        assertEquals(new dev.weft.scenario.ScenarioAction.ActivatePartition("0+6|1+2"), p.events().get(0).action());
        assertEquals(doc, FaultPlanJson.write(p));
        assertEquals(null, plan(Map.of()).events(), "a plan without the member leaves the run's events alone");
        assertEquals("member events[0].action: crash takes node_id", problem("{\"format\":\"weft-plan\",\"version\":2,"
                + "\"net\":\"" + NET + "\",\"events\":[{\"time_ns\":1,\"action\":{\"type\":\"crash\"}}]}"));
        assertEquals("member events[0].action.type: \"explode\" is not crash, start, activate_partition or"
                + " clear_partition", problem("{\"format\":\"weft-plan\",\"version\":2,\"net\":\"" + NET
                + "\",\"events\":[{\"time_ns\":1,\"action\":{\"type\":\"explode\"}}]}"));
    }

    /** plan is written as expected, and what is read back from that text writes the same text again. */
    private static FaultPlan writtenAndReadBack(FaultPlan plan, String expected) throws Exception {
        String doc = FaultPlanJson.write(plan);
        assertEquals(expected, doc);
        FaultPlan back = FaultPlanJson.parse(doc.getBytes(StandardCharsets.UTF_8));
        assertEquals(doc, FaultPlanJson.write(back));
        return back;
    }

    private static String problem(String doc) {
        return assertThrows(FaultPlanException.class, () -> FaultPlanJson.parse(doc.getBytes(StandardCharsets.UTF_8)))
                .getMessage();
    }

    @Test
    void theDocumentRoundTripsInSortedOrder() throws Exception {
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        named.put(new FaultPlan.DatagramId(B, A, 0), new FaultModel.Fate(false, 7000));
        named.put(new FaultPlan.DatagramId(A, B, 3), new FaultModel.Fate(true, 0));
        FaultPlan back = writtenAndReadBack(plan(named), """
                {"format":"weft-plan","version":1,"net":"latency=uniform:1000-50000","datagrams":[
                {"src":"127.0.0.1:4000","dst":"127.0.0.2:4001","chan_seq":3,"drop":true},
                {"src":"127.0.0.2:4001","dst":"127.0.0.1:4000","chan_seq":0,"latency_ns":7000}
                ]}
                """);
        assertEquals(named, back.named());
        assertEquals(NET, back.net());
    }

    @Test
    void aBadPlanIsOneLineNamingTheMember() {
        assertProblem("{\"format\":\"weft-plan\",\"version\":1,\"net\":\"" + NET + "\",\"datagrams\":[{\"src\":\"127.0.0.1:4000\","
                        + "\"dst\":\"127.0.0.2:4001\",\"chan_seq\":0,\"latency_ns\":999}]}",
                "member datagrams[0].latency_ns: 999 is below the net spec's minimum latency 1000");
        assertProblem("{\"format\":\"weft-plan\",\"version\":1,\"net\":\"" + NET + "\",\"datagrams\":[{\"src\":\"127.0.0.1\","
                + "\"dst\":\"127.0.0.2:4001\",\"chan_seq\":0,\"drop\":true}]}",
                "member datagrams[0].src: \"127.0.0.1\" is not an address a.b.c.d:port");
        String one = "{\"src\":\"127.0.0.1:4000\",\"dst\":\"127.0.0.2:4001\",\"chan_seq\":0,\"drop\":true}";
        assertProblem("{\"format\":\"weft-plan\",\"version\":1,\"net\":\"" + NET + "\",\"datagrams\":[" + one + "," + one + "]}",
                "member datagrams[1]: names the same datagram as an earlier entry");
        assertProblem("{\"format\":\"weft-plan\",\"version\":3,\"net\":\"" + NET + "\",\"datagrams\":[]}",
                "member version: 3 is not supported (this build reads 1 and 2)");
        assertProblem("{\"format\":\"weft-plan\",\"version\":1,\"net\":\"" + NET + "\",\"datagrams\":[{\"src\":\"127.0.0.1:4000\","
                + "\"dst\":\"127.0.0.2:4001\",\"chan_seq\":0}]}",
                "member datagrams[0]: needs exactly one of latency_ns and drop");
        assertProblem("{\"format\":\"weft-plan\",\"version\":1,\"nett\":\"x\"}",
                "member nett: unknown (a plan has format, version, net, datagrams and, from version 2, segments and events)");
    }

    private static void assertProblem(String doc, String message) {
        assertEquals(message, problem(doc));
    }
}
