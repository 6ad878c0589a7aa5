package dev.weft.launcher.net;

import static dev.weft.launcher.net.TcpProgramsTest.json;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The scenario file of the tests that run real programs as a cluster: one program per node, seed 11. */
final class ProgramScenario {

    private ProgramScenario() {
    }

    /**
     * Writes {@code dir/name.json}: node i runs {@code nodes.get(i)} ({@code [program, args…]}), latency uniform
     * 2–10 µs, no events, and the run ends once the nodes listed in {@code endWhenExited} (e.g. {@code "0, 1"})
     * exited.
     */
    static Path write(Path dir, String name, List<List<String>> nodes, String endWhenExited) throws Exception {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            List<String> argv = nodes.get(i);
            List<String> args = argv.subList(1, argv.size()).stream().map(TcpProgramsTest::json).toList();
            entries.add("{\"node_id\": " + i + ", \"program\": " + json(argv.get(0)) + ", \"args\": ["
                    + String.join(", ", args) + "]}");
        }
        Path s = dir.resolve(name + ".json");
        Files.writeString(s, """
                {"name": %s, "seed": 11,
                 "nodes": [%s],
                 "network": {"latency": "uniform:2000-10000"},
                 "end_when_exited": [%s],
                 "events": []}
                """.formatted(json(name), String.join(",\n  ", entries), endWhenExited));
        return s;
    }

    /** A node that runs script with /bin/sh. */
    static List<String> sh(String script) {
        return List.of("/bin/sh", "-c", script);
    }
}
