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
 * A valid, replayable recording whose text names things a reader must never touch (docs/security.md, "a recording
 * is data"): the header's meta, the payloads and a violation message. Nodes 0 and 1 connect, say hello and bind;
 * node 0 sends node 1 each bait string and then a state report (so the checkers parse payloads), node 1 receives
 * each; the run ends with the violation and the end record.
 */
public final class HostileRecording {
    private static final String NET = "latency=fixed:10";

    private HostileRecording() {
    }

    /**
     * Where the bait should point: {@code dir/canary}, a directory nothing creates, so any access to a path in it
     * is a reader following what the recording says.
     */
    public static Path canary(Path dir) {
        return dir.resolve("canary");
    }

    /**
     * Writes the recording to {@code log}; its meta carries {@code version} and, as the label, the bait joined by
     * spaces.
     */
    public static Path write(Path log, List<String> bait, String version, String violationMessage)
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
        try (LogWriter w = LogWriter.create(log, 1, NET, 0, new LogMeta(0L, version, String.join(" ", bait)))) {
            Executor.Execution run = Executor.execute(1, NetSpec.parse(NET), ops, List.of(), (i, vt, e, raised) -> {
                try {
                    w.append(vt, e);
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            w.append(run.finalVt(), new Event.Violation("per-channel-fifo", violationMessage));
            w.append(run.finalVt(), new Event.End(w.count() + 1, run.sent(), run.dropped()));
        }
        return log;
    }
}
