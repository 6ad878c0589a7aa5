package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --hosts} and {@code --place}: which node runs on which host agent, and the usage errors. */
class PlacementTest {
    @Test
    void hostsPlaceNodesRoundRobinWithHostIdsFromOne() throws Exception {
        Placement p = Placement.parse("7001,10.0.0.5:7787", null, 5);
        assertEquals(List.of("127.0.0.1:7001", "10.0.0.5:7787"), p.hosts());
        assertEquals(Map.of(0L, 1L, 1L, 2L, 2L, 1L, 3L, 2L, 4L, 1L), p.hostOf());
        assertEquals("host 1 = 127.0.0.1:7001: node(s) 0,2,4; host 2 = 10.0.0.5:7787: node(s) 1,3", p.describe());
    }

    @Test
    void placeNamesRangesAndLeavesTheRestOnThisMachine() throws Exception {
        Placement p = Placement.parse(null, "0-2@a:1,5@b:2", 7);
        assertEquals(List.of("a:1", "b:2"), p.hosts());
        assertEquals(Map.of(0L, 1L, 1L, 1L, 2L, 1L, 5L, 2L), p.hostOf());
        assertEquals(0, p.hostId(3), "unplaced nodes run here (host 0)");
        // --hosts fixes the host ids; --place then only says where
        Placement q = Placement.parse("b:2,a:1", "0-2@a:1,5@b:2", 7);
        assertEquals(List.of("b:2", "a:1"), q.hosts());
        assertEquals(2, q.hostId(0));
        assertEquals(1, q.hostId(5));
    }

    @Test
    void theHeadersHostMapIsSortedCompactAndFreeOfAddresses() throws Exception {
        // round-robin over 3 hosts: ids only (no address or port, which differ from run to run), hosts ascending
        assertEquals("1=0,3,6;2=1,4;3=2,5", Placement.parse("7001,7002,7003", null, 7)
                .hostMap(List.of(6L, 5L, 4L, 3L, 2L, 1L, 0L)));
        // --place: consecutive nodes as ranges, the nodes left here as host 0; b is host 1 (named first)
        assertEquals("0=3-4,6;1=5;2=0-2", Placement.parse(null, "5@b:2,0-2@a:1", 7)
                .hostMap(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L)));
        // a host that got no node is left out
        assertEquals("1=0-1", Placement.parse("a:1,b:2", "0-1@a:1", 2)
                .hostMap(List.of(0L, 1L)));
    }

    @Test
    void badPlacementsSayWhatIsWrong() {
        assertEquals("--hosts \"a:1,\": an empty entry",
                assertThrows(Placement.PlacementException.class, () -> Placement.parse("a:1,", null, 2)).getMessage());
        assertEquals("--hosts: 127.0.0.1:7 is named twice",
                assertThrows(Placement.PlacementException.class, () -> Placement.parse("7,7", null, 2)).getMessage());
        assertEquals("--hosts: host \"a:b\": expected PORT or HOST:PORT",
                assertThrows(Placement.PlacementException.class, () -> Placement.parse("a:b", null, 2)).getMessage());
        assertEquals("--place \"0-9@a:1\": nodes 0-9 are not within 0-6 (--nodes 7)",
                assertThrows(Placement.PlacementException.class, () -> Placement.parse(null, "0-9@a:1", 7)).getMessage());
        assertEquals("--place: node 2 is placed twice",
                assertThrows(Placement.PlacementException.class,
                        () -> Placement.parse(null, "0-2@a:1,2@b:1", 7)).getMessage());
        assertEquals("--place \"x@a:1\": \"x\" is not a node range (N or N-M)",
                assertThrows(Placement.PlacementException.class, () -> Placement.parse(null, "x@a:1", 7)).getMessage());
        assertEquals("--place \"3\": expected RANGE@HOST:PORT (e.g. 0-2@10.0.0.5:7787)",
                assertThrows(Placement.PlacementException.class, () -> Placement.parse(null, "3", 7)).getMessage());
    }

    @Test
    void theRunOptionsCarryThePlacementAndRefuseItWhereItCannotWork() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed", "1", "--net", "", "--nodes", "3", "--hosts", "7001",
                "--token-file", "t", "--", "p"});
        assertEquals(Map.of(0L, 1L, 1L, 1L, 2L, 1L), o.cluster().placement().hostOf());
        assertEquals(java.nio.file.Path.of("t"), o.cluster().tokenFile());
        assertEquals("--hosts needs --net (a simulated network)", assertThrows(RunOptions.UsageException.class,
                () -> RunOptions.parse(new String[] {"--seed", "1", "--hosts", "7001", "--", "p"})).getMessage());
        assertTrue(assertThrows(RunOptions.UsageException.class,
                () -> RunOptions.parse(new String[] {"--hosts", "7001", "s.json"})).getMessage()
                .startsWith("--hosts: scenario runs start every node on this machine"));
        RunOptions s = RunOptions.parse(new String[] {"--window", "1000", "--window-ops", "4", "s.json"});
        assertEquals(1000, s.cluster().windowNs());
        assertEquals(4, s.cluster().windowOps());
        assertEquals("--window-ops needs --window", assertThrows(RunOptions.UsageException.class,
                () -> RunOptions.parse(new String[] {"--window-ops", "4", "s.json"})).getMessage());
    }

    @Test
    void aNodeForABrokerElsewhereNeedsItsIdAndNoneOfTheMastersOptions() throws Exception {
        RunOptions o = RunOptions.parse(new String[] {"--seed", "1", "--broker", "10.0.0.5:9000", "--node-id", "4",
                "--host-id", "2", "--window", "1000", "--", "p"});
        assertEquals(new RunOptions.RemoteBroker("10.0.0.5:9000", 4, 2, 1000, null), o.remoteBroker());
        assertEquals(null, o.cluster());
        assertEquals("--broker needs --node-id N", assertThrows(RunOptions.UsageException.class,
                () -> RunOptions.parse(new String[] {"--seed", "1", "--broker", "h:1", "--", "p"})).getMessage());
        assertEquals("--host-id needs --broker ADDR", assertThrows(RunOptions.UsageException.class,
                () -> RunOptions.parse(new String[] {"--seed", "1", "--host-id", "2", "--", "p"})).getMessage());
        assertEquals("--broker: --record belongs to the run that hosts the broker", assertThrows(
                RunOptions.UsageException.class, () -> RunOptions.parse(new String[] {"--seed", "1", "--broker",
                    "h:1", "--node-id", "0", "--record", "x", "--", "p"})).getMessage());
        assertTrue(assertThrows(RunOptions.UsageException.class, () -> RunOptions.parse(new String[] {"--seed", "1",
            "--broker", "h:1", "--node-id", "0", "--net", "", "--", "p"})).getMessage().startsWith("--broker: a node"));
    }
}
