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
        assertEquals(new FaultModel.Fate(false, 1000), plan(named).streamFate(0, 0, 0, 0));
    }

    @Test
    void theDocumentRoundTripsInSortedOrder() throws Exception {
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        named.put(new FaultPlan.DatagramId(B, A, 0), new FaultModel.Fate(false, 7000));
        named.put(new FaultPlan.DatagramId(A, B, 3), new FaultModel.Fate(true, 0));
        String doc = FaultPlanJson.write(plan(named));
        assertEquals("""
                {"format":"weft-plan","version":1,"net":"latency=uniform:1000-50000","datagrams":[
                {"src":"127.0.0.1:4000","dst":"127.0.0.2:4001","chan_seq":3,"drop":true},
                {"src":"127.0.0.2:4001","dst":"127.0.0.1:4000","chan_seq":0,"latency_ns":7000}
                ]}
                """, doc);
        FaultPlan back = FaultPlanJson.parse(doc.getBytes(StandardCharsets.UTF_8));
        assertEquals(named, back.named());
        assertEquals(NET, back.net());
        assertEquals(doc, FaultPlanJson.write(back));
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
        assertProblem("{\"format\":\"weft-plan\",\"version\":2,\"net\":\"" + NET + "\",\"datagrams\":[]}",
                "member version: 2 is not supported (this build reads 1)");
        assertProblem("{\"format\":\"weft-plan\",\"version\":1,\"net\":\"" + NET + "\",\"datagrams\":[{\"src\":\"127.0.0.1:4000\","
                + "\"dst\":\"127.0.0.2:4001\",\"chan_seq\":0}]}",
                "member datagrams[0]: needs exactly one of latency_ns and drop");
        assertProblem("{\"format\":\"weft-plan\",\"version\":1,\"nett\":\"x\"}",
                "member nett: unknown (format 1 has format, version, net, datagrams)");
    }

    private static void assertProblem(String doc, String message) {
        FaultPlanException e = assertThrows(FaultPlanException.class,
                () -> FaultPlanJson.parse(doc.getBytes(StandardCharsets.UTF_8)));
        assertEquals(message, e.getMessage());
    }
}
