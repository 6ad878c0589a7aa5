package dev.weft.fuzz;

import dev.weft.check.Violation;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code record(...)} of fuzz.md §4: executes ops and writes them as a weft-log (gzip iff the path ends in
 * {@code .gz}) that {@code weft replay --check} verifies: every event with its vt, the violations raised at
 * each input index right after it, then {@code end} with the final core vt.
 */
public final class Reproducer {

    private Reproducer() {
    }

    public static void record(Path path, long seed, String net, List<Op> ops, List<String> invariants, String label)
            throws IOException {
        NetSpec spec;
        try {
            spec = NetSpec.parse(net);
        } catch (NetSpecException e) {
            throw new IllegalArgumentException("net spec does not parse: " + e.getMessage(), e);
        }
        try (LogWriter w = LogWriter.create(path, seed, net, 0, LogMeta.label(label))) {
            Executor.Execution run;
            try {
                run = Executor.execute(seed, spec, ops, invariants, (index, vt, event, raised) -> {
                    try {
                        w.append(vt, event);
                        for (Violation v : raised) w.append(vt, new Event.Violation(v.invariant(), v.message()));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            w.append(run.finalVt(), new Event.End(w.count() + 1, run.sent(), run.dropped()));
        }
    }
}
