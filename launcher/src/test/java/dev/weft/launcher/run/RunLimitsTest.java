package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 28 items 5, 6 and 9: what a scenario may ask of weft run, refused in one line before anything starts. */
class RunLimitsTest {
    @TempDir
    Path dir;

    /** weft run SCENARIO in this JVM: exit status and stderr (no shim is needed: these refusals come first). */
    private String[] run(String scenarioJson) throws Exception {
        Path f = Files.writeString(dir.resolve("s.json"), scenarioJson);
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        long t0 = System.nanoTime();
        int rc = RunCommand.run(new String[] {f.toString()}, Map.of("PATH", "/usr/bin:/bin"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(rc), err.toString(StandardCharsets.UTF_8).replace(f.toString(), "S"),
                Long.toString((System.nanoTime() - t0) / 1_000_000)};
    }

    private static String scenario(String nodes, String events) {
        return "{\"name\":\"n\",\"seed\":1,\"nodes\":[" + nodes + "],\"events\":[" + events + "]}";
    }

    @Test
    void aNulInAProgramIsOneLineNotAStackTrace() throws Exception {
        String[] r = run(scenario("{\"node_id\":0,\"program\":\"/bin/tr\\u0000ue\",\"args\":[]}", ""));
        assertEquals("2", r[0]);
        assertEquals("weft run: S: node 0: program \"/bin/tr\\u0000ue\" holds a NUL character at offset 7 (a program's"
                + " name and arguments cannot carry one)\n", r[1]);
        r = run(scenario("{\"node_id\":0,\"program\":\"/bin/true\",\"args\":[\"ok\\tfine\\n\",\"bell\\u0007\"]}", ""));
        assertEquals("weft run: S: node 0: argument 2 \"bell\\u0007\" holds the control character U+0007 at offset 4\n", r[1]);
        r = run(scenario("{\"node_id\":0,\"program\":\"/bin/true\",\"args\":[\"a\\u0000b\"]}", ""));
        assertTrue(r[1].startsWith("weft run: S: node 0: argument 1 \"a\\u0000b\" holds a NUL character at offset 1"), r[1]);
    }

    @Test
    void tooManyNodesAreRefusedAtOnce() throws Exception {
        StringBuilder nodes = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            nodes.append(i == 0 ? "" : ",").append("{\"node_id\":").append(i).append(",\"program\":\"/bin/true\",\"args\":[]}");
        }
        String[] r = run(scenario(nodes.toString(), ""));
        assertEquals("2", r[0]);
        assertEquals("weft run: S: 100000 nodes; a run starts at most 1024\n", r[1]);
    }

    @Test
    void aBadPartitionSpecInAnEventIsRefusedAtLoad() throws Exception {
        String node = "{\"node_id\":0,\"program\":\"/bin/true\",\"args\":[]}";
        String[] r = run(scenario(node, "{\"time_ns\":5,\"action\":{\"type\":\"activate_partition\",\"spec\":\"0++1|\"}}"));
        assertEquals("2", r[0]);
        assertEquals("weft run: S: event at t=5: activate_partition spec \"0++1|\": empty node id in group \"0++1\"\n", r[1]);
        assertEquals("empty group (consecutive '|' or a leading or trailing '|')", RunLimits.partitionProblem("0+1|"));
        assertEquals("'x' is not a node id", RunLimits.partitionProblem("0|x"));
        assertEquals(null, RunLimits.partitionProblem(" 0+1 | 2 "));
    }

    /** A scenario that is /dev/zero (or any file past 64 MiB) is read no further than the limit and refused. */
    @Test
    void anEndlessScenarioFileIsRefusedInOneLine() throws Exception {
        Path zero = Files.createSymbolicLink(dir.resolve("zero.json"), Path.of("/dev/zero"));
        ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();
        int rc = RunCommand.run(new String[] {zero.toString()}, Map.of("PATH", "/usr/bin:/bin"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, rc);
        assertEquals("weft run: " + zero + ": more than 67108864 bytes (64 MiB); a scenario file is at most that\n",
                err.toString(StandardCharsets.UTF_8));
    }
}
