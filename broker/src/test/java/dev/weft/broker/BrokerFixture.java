package dev.weft.broker;

import dev.weft.broker.record.LogRecorder;
import dev.weft.broker.record.Recorder;
import dev.weft.net.FaultModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A broker on a private socket in a temporary directory, recording to {@code log} (or not, if null). */
final class BrokerFixture implements AutoCloseable {
    final SingleHostSequencer sequencer;
    final BrokerServer server;
    final Recorder recorder;
    final List<String> diagnostics = Collections.synchronizedList(new ArrayList<>());

    BrokerFixture(Path dir, Path log, long seed, String net) throws Exception {
        this(dir, log == null ? null : LogRecorder.create(log, seed, net, System.err::println), seed, net, false);
    }

    BrokerFixture(Path dir, Recorder rec, long seed, String net, boolean tcp) throws Exception {
        recorder = rec == null ? Recorder.NONE : rec;
        sequencer = new SingleHostSequencer(FaultModel.of(seed, net), recorder);
        server = BrokerServer.start(sequencer, dir, tcp ? new java.net.InetSocketAddress("127.0.0.1", 0) : null,
                true, diagnostics::add);
    }

    SpecClient client() throws IOException {
        return new SpecClient(server.socketPath());
    }

    /** Waits (up to 5 s) until at most {@code n} connections are still open. */
    void awaitNoConnectionsBut(int n) throws InterruptedException {
        for (int i = 0; i < 500 && server.liveConnections() > n; i++) {
            Thread.sleep(10);
        }
    }

    @Override
    public void close() {
        server.close();
        recorder.close();
    }
}
