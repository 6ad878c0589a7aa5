package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.NativeFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shim against the real broker (broker module), recording: every scenario of net_basic runs
 * as a node of one recorded run, the recording replays identical, and the recorded operations are
 * the ones the shim's design promises (a blocked receive is one recorded recv, never a poll).
 * Adds about 2 s of test time.
 */
class NetEndToEndTest {
    @TempDir
    Path dir;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private record Recorded(List<String> outputs, List<String> log) {
    }

    /** Runs each argument list as node 0, one after the other, under one recording broker. */
    private Recorded record(List<List<String>> runs) throws Exception {
        Path log = dir.resolve("run.weftlog");
        List<String> outputs = new ArrayList<>();
        try (RecordingShimBroker broker = new RecordingShimBroker(dir, log)) {
            for (List<String> args : runs) {
                List<String> argv = new ArrayList<>(List.of(NativeFixture.testProgram("net_basic").toString()));
                argv.addAll(args);
                var r = broker.runAsNode0(argv);
                assertEquals(0, r.exit(), args + ": " + r.stderr());
                outputs.add(r.stdout());
            }
        }
        return new Recorded(outputs, Files.readAllLines(log));
    }

    @Test
    void everyScenarioRecordsAndReplaysIdentical() throws Exception {
        var rec = record(List.of(List.of("basic"), List.of("dontwait"), List.of("msg"), List.of("connect"),
                List.of("poll"), List.of("select"), List.of("epoll")));
        assertTrue(rec.outputs().get(0).contains("b got: \"hello\" from 127.0.0.1:4000\n"), rec.outputs().get(0));
        assertTrue(rec.outputs().get(4).contains("datagram sent: rc 1 pipe - socket readable\n"), rec.outputs().get(4));
        assertTrue(RecordingShimBroker.replay(dir.resolve("run.weftlog")).startsWith("replay identical: "));
        // the auto-bound socket of 'basic' took port 50000 (spec §4) and every node greeted as node 0
        assertTrue(rec.log().stream().anyMatch(l -> l.contains("\"k\":\"bind\"") && l.contains("\"port\":50000")));
        assertTrue(rec.log().stream().filter(l -> l.contains("\"k\":\"hello\"")).allMatch(l -> l.contains("\"node\":0")));
    }

    /**
     * A receiver that waits in recvfrom while the sender takes its time is exactly one recorded,
     * blocking recv: the wait never shows up as empty polls.
     */
    @Test
    void aWaitingReceiverIsOneBlockingRecv() throws Exception {
        var rec = record(List.of(List.of("rcvtimeo")));
        assertTrue(rec.outputs().get(0).endsWith("timed recv: \"in time\" from 127.0.0.1:4000\nvirtual ms waited: 0\n"),
                rec.outputs().get(0));
        List<String> recvs = rec.log().stream().filter(l -> l.contains("\"k\":\"recv\"")).toList();
        assertEquals(1, recvs.size(), String.join("\n", recvs));
        assertTrue(recvs.get(0).contains("\"blocking\":true") && recvs.get(0).contains("\"kind\":\"delivered\""), recvs.get(0));
        assertTrue(RecordingShimBroker.replay(dir.resolve("run.weftlog")).startsWith("replay identical: "));
    }
}
