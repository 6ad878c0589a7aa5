package dev.weft.scenario;

import java.util.List;

/** Valid scenarios used as the base of tests and mutations. */
final class ScenarioExamples {

    private ScenarioExamples() {
    }

    static final String MINIMAL = """
            {"name":"m","seed":1,"nodes":[{"node_id":0,"program":"p","args":[]}]}""";

    static final String FULL = """
            {
              "name": "chord-ring",
              "description": "six members and an observer",
              "seed": 18446744073709551615,
              "nodes": [
                {"node_id": 0, "program": "examples/chord", "args": ["--id", "0"]},
                {"node_id": 1, "program": "examples/chord", "args": ["--id", "1"], "extra": {"x": [1, 2]}},
                {"node_id": 2, "program": "examples/observer", "args": []}
              ],
              "network": {"latency": " uniform:1000-60000 ", "loss": 0.05, "bandwidth": 1000000, "partitions": "0+1|2"},
              "filesystem": {"0": {"fsync_lies": true, "enospc_after_bytes": 4096, "torn_write_probability": 0.5},
                             "2": {"torn_write_probability": null}},
              "time_skew": {"1": -250, "2": 9223372036854775807},
              "events": [
                {"time_ns": 9000, "action": {"type": "clear_partition"}},
                {"time_ns": 3000, "action": {"type": "activate_partition", "spec": "0|1+2"}},
                {"time_ns": 3000, "action": {"node_id": 1, "type": "crash"}},
                {"time_ns": 5000, "action": {"type": "start", "node_id": 1}}
              ],
              "unknown": null
            }
            """;

    static final String NULLS = """
            {"name":"n","description":null,"seed":0,"nodes":[],"network":{"latency":null,"loss":null,"bandwidth":null,"partitions":null},
             "filesystem":null,"time_skew":null}""";

    static final String EDGES = """
            {"name":"e","seed":0,"nodes":[{"node_id":0,"program":"a","args":["x"]},{"node_id":1,"program":"b","args":[]}],
             "network":{"latency":"exp:1","loss":1,"bandwidth":1,"partitions":"0|1"},
             "filesystem":{"1":{"torn_write_probability":0}},"time_skew":{"0":0},
             "events":[{"time_ns":1,"action":{"type":"crash","node_id":1}},{"time_ns":0,"action":{"type":"start","node_id":0}}]}""";

    static List<String> all() {
        return List.of(MINIMAL, FULL, NULLS, EDGES);
    }
}
