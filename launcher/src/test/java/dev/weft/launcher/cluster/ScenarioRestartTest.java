package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.testsupport.RecordedLines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario crashes raft server 2 (SIGKILL) at 8 ms of virtual time and starts it again at 12 ms: the second
 * process has a new pid and the same node id, joins the observer's pacing at the current tick (with a fresh
 * state: a real crash loses votedFor whatever RAFT_FIX says), and its state reports resume in the recording,
 * which replays identically.
 */
@ExtendWith(ClusterFixture.Ready.class)
class ScenarioRestartTest {

    @Test
    void crashedNodeRestartsAsANewProcessAndItsTrafficResumes(@TempDir Path dir) throws Exception {
        String raft = ClusterFixture.example("raft_node");
        StringBuilder nodes = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            nodes.append(i == 0 ? "" : ",\n").append("{\"node_id\": ").append(i).append(", \"program\": \"")
                    .append(raft).append("\", \"args\": [\"20\"]}");
        }
        Path scenario = dir.resolve("raft-restart.json");
        Files.writeString(scenario, """
                {"name": "raft server 2 crashes and comes back", "seed": 4,
                 "nodes": [%s],
                 "network": {"latency": "uniform:2000-10000"},
                 "events": [
                   {"time_ns": 8000000, "action": {"type": "crash", "node_id": 2}},
                   {"time_ns": 12000000, "action": {"type": "start", "node_id": 2}}]}
                """.formatted(nodes));
        Path log = dir.resolve("restart.weftlog");
        var r = ClusterFixture.weftRun(Map.of("RAFT_NNODES", "6", "RAFT_FIX", "1"), "--record", log.toString(),
                "--watchdog", ClusterFixture.WATCHDOG_SECONDS, scenario.toString());
        assertEquals(0, r.exit(), r.all());
        Matcher crash = Pattern.compile("crash node 2 \\(pid (\\d+),").matcher(r.stderr());
        Matcher start = Pattern.compile("start node 2 \\(new pid (\\d+)\\)").matcher(r.stderr());
        assertTrue(crash.find() && start.find(), r.all());
        assertNotEquals(crash.group(1), start.group(1), "a restart is a new process");

        List<String> lines = Files.readAllLines(log);
        List<Long> conns = RecordedLines.helloConns(lines, 2);
        assertEquals(4, conns.size(), "two sockets per incarnation of node 2: " + conns);
        long firstIncarnationReports = reportsOf(lines, conns.subList(0, 2));
        long secondIncarnationReports = reportsOf(lines, conns.subList(2, 4));
        assertTrue(firstIncarnationReports > 0 && secondIncarnationReports > 0,
                "reports before the crash " + firstIncarnationReports + ", after the restart " + secondIncarnationReports);
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"k\":\"recv\",\"conn\":" + conns.get(2) + ",")
                && l.contains("\"kind\":\"delivered\"")), "the new process receives protocol traffic");
        ClusterFixture.assertReplaysIdentical(log, 1);
    }

    /** State reports ("RPT 2 …", hex 525054203220…) sent from the given connections. */
    private static long reportsOf(List<String> lines, List<Long> conns) {
        return lines.stream().filter(l -> l.contains("\"k\":\"send\"")
                && conns.stream().anyMatch(c -> l.contains("\"conn\":" + c + ","))
                && l.contains("\"payload\":\"525054203220")).count();
    }
}
