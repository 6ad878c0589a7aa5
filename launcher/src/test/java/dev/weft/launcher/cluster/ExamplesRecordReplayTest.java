package dev.weft.launcher.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every cluster example, recorded by our broker through our shim: the run ends cleanly (an {@code end} record),
 * replays identical ten times over, and the file is canonical byte for byte, so the reference's replayer accepts
 * it too. Runs are short (few ticks, few datagrams) to keep the suite fast.
 */
@ExtendWith(ClusterFixture.Ready.class)
class ExamplesRecordReplayTest {

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of("pingpong", Map.of(), "latency=uniform:1000-5000", 2, List.of(), 0),
                Arguments.of("kvreplica", Map.of(), "latency=uniform:1000-50000", 0, List.of(), 1),
                Arguments.of("bigflow", Map.of("BIGFLOW_COUNT", "300"), "latency=uniform:1000-2000,bw=10000000", 2,
                        List.of(), 0),
                Arguments.of("chord_node", Map.of("CHORD_NNODES", "5", "CHORD_FIX", "0"), "latency=uniform:1000-60000",
                        5, List.of("6", "30", "3"), 0),
                Arguments.of("raft_node", Map.of("RAFT_NNODES", "4", "RAFT_FIX", "0"), "latency=uniform:2000-10000", 4,
                        List.of("12"), 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void recordsReplayIdenticallyTenTimesInCanonicalForm(String program, Map<String, String> env, String net, int nodes,
            List<String> args, int expectedExit, @TempDir Path dir) throws Exception {
        Path log = dir.resolve(program + ".weftlog");
        var run = ClusterFixture.record(env, 3, net, nodes, log, program, args.toArray(String[]::new));
        assertEquals(expectedExit, run.exit(), run.all());
        assertTrue(run.stderr().contains("recorded to " + log + " (verify: weft replay " + log + ")"), run.all());

        long records = 0;
        LogRecord last = null;
        try (LogReader r = LogReader.open(log)) {
            for (LogRecord rec; (rec = r.next()) != null; last = rec) {
                records++;
            }
        }
        assertTrue(last != null && last.event() instanceof Event.End, "a clean finish ends with an end record");
        assertTrue(records > 10, program + " recorded only " + records + " records");

        String line = ClusterFixture.assertReplaysIdentical(log, 10);
        assertTrue(line.startsWith("replay identical: " + records + " op(s), stream digest "), line);
        ClusterFixture.assertCanonical(log);
    }
}
