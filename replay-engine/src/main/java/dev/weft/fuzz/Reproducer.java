package dev.weft.fuzz;

import dev.weft.check.Violation;
import dev.weft.io.AtomicFile;
import dev.weft.io.ByteBudget;
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
 * each input index right after it, then {@code end} with the final core vt. The file appears under its name
 * only complete ({@link AtomicFile}): a run killed mid-write leaves no truncated reproducer that would replay
 * "identical" as if it were whole.
 */
public final class Reproducer {

    private Reproducer() {
    }

    public static void record(Path path, long seed, String net, List<Op> ops, List<String> invariants, String label)
            throws IOException {
        record(path, seed, net, ops, invariants, label, ByteBudget.UNLIMITED);
    }

    /**
     * Like {@link #record(Path, long, String, List, List, String)}, charging the file's bytes to {@code budget}:
     * a reproducer that would pass it is not written ({@link ByteBudget.Exceeded}) and its bytes are given back.
     */
    public static void record(Path path, long seed, String net, List<Op> ops, List<String> invariants, String label,
                              ByteBudget budget) throws IOException {
        NetSpec spec;
        try {
            spec = NetSpec.parse(net);
        } catch (NetSpecException e) {
            throw new IllegalArgumentException("net spec does not parse: " + e.getMessage(), e);
        }
        boolean gzip = path.getFileName() != null && path.getFileName().toString().endsWith(".gz");
        try (AtomicFile file = AtomicFile.create(path)) {
            ByteBudget.Charged charged = budget.charge(file.stream());
            try {
                LogWriter w = LogWriter.create(charged, gzip, seed, net, 0, LogMeta.label(label));
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
                w.close(); // ends a gzip member; the file itself stays open until commit
                file.commit();
            } catch (IOException | RuntimeException e) {
                budget.refund(charged.charged());
                throw e;
            }
        }
    }
}
