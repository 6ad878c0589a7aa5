package dev.weft.replay;

import dev.weft.check.Invariants;
import dev.weft.check.Violation;
import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.WeftLogException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads, verifies and replays a weft-log in one streaming pass (core-and-replay.md §4).
 *
 * <p>The reference verifies the whole file before replaying, so a read error anywhere wins over a replay problem or
 * a divergence earlier in the file: this pass keeps reading to the end after replay stops, and only then reports.
 * The same pass collects what the violation reports need (record count, whole-log digest, event windows), so a log
 * with hundreds of violations costs no more than one without.
 */
public final class Replayer {

    private static final int WINDOW = 4;

    private Replayer() {
    }

    public static ReplayReport replay(Path path, ReplayOptions options) throws WeftLogException, ReplayException {
        // Parsing and verification run on a helper thread ahead of the replay: same records, same errors, less wall time.
        try (LogReader reader = LogReader.openInBackground(path)) {
            return replay(reader, options);
        } catch (java.io.IOException e) {
            throw WeftLogException.io(e.getMessage(), 0, e);
        }
    }

    /**
     * Replays a recording while it is being written ({@link LogReader#follow}): records are replayed as they arrive
     * and the report is made once the {@code end} record is in, or the writer is gone ({@code idleLimitMillis}
     * &gt; 0 without growth) and what it wrote has been read. The report's {@code sawEnd} tells ended from truncated.
     */
    public static ReplayReport follow(Path path, ReplayOptions options, long pollMillis, long idleLimitMillis)
            throws WeftLogException, ReplayException {
        try (LogReader reader = LogReader.follow(path, pollMillis, idleLimitMillis)) {
            return replay(reader, options);
        } catch (java.io.IOException e) {
            throw WeftLogException.io(e.getMessage(), 0, e);
        }
    }

    public static ReplayReport replay(LogReader reader, ReplayOptions options) throws WeftLogException, ReplayException {
        ReplayException headerProblem = null;
        ReplayStepper stepper = null;
        try {
            stepper = ReplayStepper.create(reader.header(), Invariants.instantiate(options.invariants()), options.fates());
        } catch (ReplayException e) {
            headerProblem = e;
        }
        ReplayLoop loop = new ReplayLoop(reader, stepper, true, options.until());
        ViolationWindows windows = new ViolationWindows(stepper);
        loop.run(windows);
        ReplayException replayProblem = headerProblem != null ? headerProblem
                : loop.replayProblem() != null ? loop.replayProblem().what() : null;
        if (replayProblem != null) {
            throw replayProblem;
        }
        Divergence divergence = loop.divergence() == null ? null : loop.divergence().what();
        List<Violation> violations = divergence == null ? List.copyOf(stepper.violations()) : List.of();
        return new ReplayReport(reader.header(), loop.replayed(), loop.digest(), divergence, violations,
                reader.recordsRead(), reader.streamDigest(), windows.windows, stepper.acceptedWindowedEmpties(),
                reader.sawEnd());
    }

    /**
     * Collects, for each op with a violation, the records around it (up to {@value #WINDOW} before, the op itself and
     * up to {@value #WINDOW} - 1 after) for the violation reports, in the same pass.
     */
    private static final class ViolationWindows implements ReplayLoop.Listener {
        private final ReplayStepper stepper;
        private final ArrayDeque<LogRecord> recent = new ArrayDeque<>(WINDOW + 1);
        private final Map<Long, List<LogRecord>> windows = new HashMap<>();
        private final List<PendingWindow> open = new ArrayList<>();
        private int violationsSeen;

        ViolationWindows(ReplayStepper stepper) {
            this.stepper = stepper;
        }

        @Override
        public void after(LogRecord r, Event replayed) {
            if (!open.isEmpty()) { // only after a violation: most records skip this (and its lambda allocation)
                for (PendingWindow w : open) {
                    w.records().add(r);
                }
                open.removeIf(w -> r.op() - w.op() >= WINDOW);
            }
            if (replayed != null) {
                List<Violation> vs = stepper.violations();
                for (; violationsSeen < vs.size(); violationsSeen++) {
                    long op = vs.get(violationsSeen).op();
                    if (!windows.containsKey(op)) {
                        List<LogRecord> rows = new ArrayList<>(recent);
                        rows.add(r);
                        windows.put(op, rows);
                        open.add(new PendingWindow(op, rows));
                    }
                }
            }
            recent.addLast(r);
            if (recent.size() > WINDOW) {
                recent.removeFirst();
            }
        }
    }

    /** A violation's event window still waiting for the records after the violating op. */
    private record PendingWindow(long op, List<LogRecord> records) {
    }
}
