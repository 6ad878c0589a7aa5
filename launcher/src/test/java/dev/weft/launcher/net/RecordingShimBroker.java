package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.broker.BrokerServer;
import dev.weft.broker.SingleHostSequencer;
import dev.weft.broker.record.LogRecorder;
import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.NativeFixture;
import dev.weft.net.FaultModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The real broker (broker module, single-host sequencer) recording one log, for the shim's end-to-end tests: test
 * programs run under it as node 0 with the shim preloaded, and the log it wrote is replayed through
 * {@code weft replay}. Closing it stops the broker, then ends the recording.
 */
final class RecordingShimBroker implements AutoCloseable {
    static final long SEED = 7;
    static final String NET = "latency=uniform:1000-20000";

    private final LogRecorder recorder;
    private final BrokerServer server;

    /** Starts a broker (its socket in dir) that records to log. */
    RecordingShimBroker(Path dir, Path log) throws Exception {
        recorder = LogRecorder.create(log, SEED, NET, System.err::println);
        try {
            server = BrokerServer.start(new SingleHostSequencer(FaultModel.of(SEED, NET), recorder), dir, null, true,
                    System.err::println);
        } catch (Exception | Error e) {
            recorder.close();
            throw e;
        }
    }

    /** Runs argv to its end as node 0 of this broker, the shim preloaded and nothing else inherited. */
    NativeFixture.Result runAsNode0(List<String> argv) {
        Map<String, String> env = NativeFixture.cleanEnv();
        env.put("LD_PRELOAD", NativeFixture.shim().toString());
        env.put("WEFT_SEED", Long.toString(SEED));
        env.put("WEFT_BROKER", server.socketPath().toString());
        env.put("WEFT_NODE_ID", "0");
        return NativeFixture.exec(argv, env);
    }

    @Override
    public void close() {
        try {
            server.close();
        } finally {
            recorder.close();
        }
    }

    /** What {@code weft replay log} prints on stdout, its exit status 0 asserted. */
    static String replay(Path log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = ReplayCommand.run(new String[] {log.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, rc, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
