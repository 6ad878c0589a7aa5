package dev.weft.testsupport;

import dev.weft.fuzz.Executor;
import dev.weft.fuzz.Op;
import dev.weft.fuzz.WorkloadGenerator;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A recording full of strings that must stay data (docs/security.md, "a recording is data"): paths, URLs and shell
 * commands in the header's meta, in the payloads node 0 sends node 1, and in a violation record's message. It is a
 * real run of the broker core over a fixed-latency network, so it verifies and replays like any recording.
 */
public final class BaitRecording {

    private BaitRecording() {
    }

    /**
     * Writes the recording to {@code log}: the meta's version is {@code version} and its label the bait joined by
     * spaces; every bait string is one datagram, and a state report rides along so the protocol checkers parse
     * payloads; a per-channel-fifo violation saying {@code violation} and the end record close it.
     */
    public static void write(Path log, List<String> bait, String version, String violation)
            throws IOException, NetSpecException {
        VAddr a = WorkloadGenerator.addressOf(0);
        VAddr b = WorkloadGenerator.addressOf(1);
        List<Op> ops = new ArrayList<>(List.of(new Op.Connect(0), new Op.Hello(0, 0), new Op.Bind(0, a),
                new Op.Connect(1), new Op.Hello(1, 1), new Op.Bind(1, b)));
        List<String> payloads = new ArrayList<>(bait);
        payloads.add("RPT 0 1 1 1 1 1");
        for (String text : payloads) {
            ops.add(new Op.Send(0, a, b, text.getBytes(StandardCharsets.UTF_8)));
            ops.add(new Op.Recv(1, false));
        }
        String net = "latency=fixed:10";
        try (LogWriter w = LogWriter.create(log, 1, net, 0, new LogMeta(0L, version, String.join(" ", bait)))) {
            Executor.Execution run = Executor.execute(1, NetSpec.parse(net), ops, List.of(), (i, vt, e, raised) -> {
                try {
                    w.append(vt, e);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            w.append(run.finalVt(), new Event.Violation("per-channel-fifo", violation));
            w.append(run.finalVt(), new Event.End(w.count() + 1, run.sent(), run.dropped()));
        }
    }
}
