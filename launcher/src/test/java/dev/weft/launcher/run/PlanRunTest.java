package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCommand;
import dev.weft.log.LogReader;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.replay.LogIndex;
import dev.weft.replay.PlanSidecar;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft plan LOG} then {@code weft run --plan}: a live windowed pingpong run re-run under the plan its recording
 * followed reproduces the recording (same stream digest), twice byte-identically, and replays through its sidecar.
 */
class PlanRunTest {

    @RegisterExtension
    static final CompiledProgram PINGPONG = new CompiledProgram("examples/pingpong.c");

    @TempDir
    Path dir;

    private ClusterRunTest.Out run(Path log, String... extra) {
        return WindowedRunTest.windowedRun(PINGPONG.path(), 44, log, extra);
    }

    private static String[] weft(WeftCommand command, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = command.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new String[] {Integer.toString(exit), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void theExtractedPlanReproducesTheRecordingAndTwoPlannedRunsAreByteIdentical() throws Exception {
        Path seeded = dir.resolve("seeded.weftlog");
        ClusterRunTest.Out o = run(seeded);
        assertEquals(0, o.exit(), o.stderr());
        String[] plan = weft(WeftCommand.PLAN, seeded.toString());
        assertEquals("0", plan[0], plan[2]);
        FaultPlan parsed = FaultPlanJson.parse(plan[1].getBytes(StandardCharsets.UTF_8));
        assertFalse(parsed.deviations().isEmpty(), "uniform latencies deviate from the minimum");
        Path planFile = dir.resolve("p.json");
        Files.writeString(planFile, plan[1]);

        Path a = dir.resolve("a.weftlog");
        Path b = dir.resolve("b.weftlog");
        assertEquals(0, run(a, "--plan", planFile.toString()).exit());
        assertEquals(0, run(b, "--plan", planFile.toString()).exit());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b), "one plan, one recording");
        assertArrayEquals(Files.readAllBytes(planFile), Files.readAllBytes(PlanSidecar.of(a)), "the plan lies beside it");
        String header = Files.readAllLines(a).get(0);
        assertTrue(header.contains("\"plan\":\"" + FaultPlanJson.digest(Files.readAllBytes(planFile)) + "\""), header);
        assertFalse(Files.readAllLines(seeded).get(0).contains("\"plan\""), "a seeded run's header is unchanged");

        ReplayReport original = Replayer.replay(seeded, ReplayOptions.PLAIN);
        FaultPlan sidecar;
        try (LogReader r = LogReader.open(a)) {
            sidecar = PlanSidecar.forRecording(a, r.header());
        }
        ReplayReport planned = Replayer.replay(a, ReplayOptions.PLAIN.withFates(sidecar));
        assertTrue(planned.identical(), () -> "diverged: " + planned.divergence());
        assertEquals(original.digest(), planned.digest(), "the planned run reproduces the recording's digest");
        assertEquals(original.count(), planned.count());

        String[] replay = weft(WeftCommand.REPLAY, a.toString());
        assertEquals("0", replay[0], replay[2]);
        // The index behind `weft state` and the workbench finds the plan too.
        try (LogIndex index = LogIndex.build(a)) {
            assertTrue(index.status().ok(), () -> index.status().message());
        }
        Files.delete(PlanSidecar.of(a));
        replay = weft(WeftCommand.REPLAY, a.toString());
        assertEquals("1", replay[0]);
        assertTrue(replay[2].startsWith("weft replay: " + a + ": " + PlanSidecar.of(a) + ": missing: the recording was"
                + " made with a fault plan"), replay[2]);
    }

    @Test
    void aBadPlanIsOneLineNamingTheMember() throws Exception {
        Path planFile = dir.resolve("bad.json");
        Files.writeString(planFile, "{\"format\":\"weft-plan\",\"version\":1,\"net\":\"" + WindowedRunTest.NET + "\","
                + "\"datagrams\":[{\"src\":\"127.0.0.1:4000\",\"dst\":\"127.0.0.2:4001\",\"chan_seq\":0,\"latency_ns\":5}]}");
        ClusterRunTest.Out o = run(dir.resolve("x.weftlog"), "--plan", planFile.toString());
        assertEquals(RunCommand.USAGE_ERROR, o.exit());
        assertEquals("weft run: --plan " + planFile + ": member datagrams[0].latency_ns: 5 is below the net spec's"
                + " minimum latency 2000\n", o.stderr());
    }

    /** A plan's events are the run's partitions: here a --nodes run (no scenario) is cut for its first 30 ms. */
    @Test
    void aPlansEventsPartitionARunWithoutAScenario() throws Exception {
        Path planFile = dir.resolve("events.json");
        Files.writeString(planFile, "{\"format\":\"weft-plan\",\"version\":2,\"net\":\"" + WindowedRunTest.NET
                + "\",\"datagrams\":[],\"events\":[\n"
                + "{\"time_ns\":0,\"action\":{\"type\":\"activate_partition\",\"spec\":\"0|1\"}},\n"
                + "{\"time_ns\":30000000,\"action\":{\"type\":\"clear_partition\"}}\n]}\n");
        Path cut = dir.resolve("cut.weftlog");
        ClusterRunTest.Out o = run(cut, "--plan", planFile.toString());
        assertEquals(0, o.exit(), o.stderr());
        assertTrue(o.stderr().contains("partition 0|1"), o.stderr());
        assertTrue(o.stderr().contains("partition cleared"), o.stderr());
        Path free = dir.resolve("free.weftlog");
        Files.writeString(dir.resolve("none.json"), "{\"format\":\"weft-plan\",\"version\":1,\"net\":\""
                + WindowedRunTest.NET + "\",\"datagrams\":[]}\n");
        assertEquals(0, run(free, "--plan", dir.resolve("none.json").toString()).exit());
        // sends cut by a partition are not in the log (docs/broker.md): the first recorded one comes after the heal
        assertTrue(firstSendVt(cut) >= 30_000_000L, "cut off for 30 ms: " + firstSendVt(cut));
        assertTrue(firstSendVt(free) < 30_000_000L, "not cut: " + firstSendVt(free));

        Files.writeString(planFile, "{\"format\":\"weft-plan\",\"version\":2,\"net\":\"" + WindowedRunTest.NET
                + "\",\"events\":[{\"time_ns\":5,\"action\":{\"type\":\"crash\",\"node_id\":5}}]}");
        o = run(dir.resolve("bad.weftlog"), "--plan", planFile.toString());
        assertEquals(2, o.exit(), o.stderr());
        assertEquals("weft run: --plan " + planFile + ": member events[0]: node 5 is not one of the run's nodes\n",
                o.stderr());
    }

    /** The send_vt of the log's first send record. */
    private static long firstSendVt(Path log) throws Exception {
        java.util.regex.Pattern p = java.util.regex.Pattern.compile("\"k\":\"send\".*?\"send_vt\":(\\d+)");
        for (String line : Files.readAllLines(log)) {
            java.util.regex.Matcher m = p.matcher(line);
            if (m.find()) return Long.parseLong(m.group(1));
        }
        throw new AssertionError("no send in " + log);
    }
}
