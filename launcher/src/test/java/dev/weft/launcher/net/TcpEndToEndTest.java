package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.NativeFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shim's TCP sockets against the real broker (single-host sequencer, recording): each tcp_basic scenario runs
 * as node 0 of its own recorded run, prints what it prints against the test stand-in ({@link TcpShimTest}), and
 * its recording replays identical.
 */
class TcpEndToEndTest {
    @TempDir
    Path dir;

    @BeforeEach
    void built() {
        NativeFixture.assumeBuilt();
    }

    private record Recorded(String stdout, List<String> log) {
    }

    private Recorded record(String scenario) throws Exception {
        Path log = dir.resolve(scenario + ".weftlog");
        String out;
        try (RecordingShimBroker broker = new RecordingShimBroker(dir, log)) {
            var r = broker.runAsNode0(List.of(NativeFixture.testProgram("tcp_basic").toString(), scenario));
            assertEquals(0, r.exit(), scenario + ": " + r.stdout() + r.stderr());
            out = r.stdout();
        }
        return new Recorded(out, Files.readAllLines(log));
    }

    @ParameterizedTest
    @ValueSource(strings = {"echo", "nbconnect", "epoll", "shutdown", "epipe", "forkserver", "execcat", "options",
        "twice", "duplex", "reset", "sendfile"})
    void scenarioAgainstTheRealBroker(String scenario) throws Exception {
        var rec = record(scenario);
        assertEquals(TcpShimTest.TRANSCRIPTS.get(scenario), rec.stdout());
        assertTrue(rec.log().stream().anyMatch(l -> l.contains("\"k\":\"tcp_")), "TCP records in the log");
        assertTrue(RecordingShimBroker.replay(dir.resolve(scenario + ".weftlog")).startsWith("replay identical: "));
    }
}
