package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.broker.BrokerServer;
import dev.weft.broker.SingleHostSequencer;
import dev.weft.broker.record.LogRecorder;
import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.NativeFixture;
import dev.weft.net.FaultModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
    private static final long SEED = 7;
    private static final String NET = "latency=uniform:1000-20000";

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
        LogRecorder recorder = LogRecorder.create(log, SEED, NET, System.err::println);
        String out;
        try (BrokerServer server = BrokerServer.start(new SingleHostSequencer(FaultModel.of(SEED, NET), recorder),
                dir, null, true, System.err::println)) {
            Map<String, String> env = NativeFixture.cleanEnv();
            env.put("LD_PRELOAD", NativeFixture.shim().toString());
            env.put("WEFT_SEED", Long.toString(SEED));
            env.put("WEFT_BROKER", server.socketPath().toString());
            env.put("WEFT_NODE_ID", "0");
            var r = NativeFixture.exec(List.of(NativeFixture.testProgram("tcp_basic").toString(), scenario), env);
            assertEquals(0, r.exit(), scenario + ": " + r.stdout() + r.stderr());
            out = r.stdout();
        } finally {
            recorder.close();
        }
        return new Recorded(out, Files.readAllLines(log));
    }

    private String replay(Path log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ReplayCommand.run(new String[] {log.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"echo", "nbconnect", "epoll", "shutdown", "epipe", "forkserver", "execcat", "options",
        "twice", "duplex", "reset", "sendfile"})
    void scenarioAgainstTheRealBroker(String scenario) throws Exception {
        var rec = record(scenario);
        assertEquals(TcpShimTest.TRANSCRIPTS.get(scenario), rec.stdout());
        assertTrue(rec.log().stream().anyMatch(l -> l.contains("\"k\":\"tcp_")), "TCP records in the log");
        assertTrue(replay(dir.resolve(scenario + ".weftlog")).startsWith("replay identical: "));
    }
}
