package dev.weft.replay;

import dev.weft.check.Invariants;
import dev.weft.check.Violation;
import dev.weft.log.CanonicalJson;
import dev.weft.log.Event;
import dev.weft.log.Fnv1a;
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
        ReplayException replayProblem = null;
        ReplayStepper stepper = null;
        try {
            stepper = ReplayStepper.create(reader.header(), Invariants.instantiate(options.invariants()));
        } catch (ReplayException e) {
            replayProblem = e;
        }
        boolean replaying = stepper != null;
        Long until = options.until();

        long count = 0;
        long digest = Fnv1a.OFFSET_BASIS;
        long recordedDigest = reader.streamDigest();
        long total = 0;
        Divergence divergence = null;
        int violationsSeen = 0;

        ArrayDeque<LogRecord> recent = new ArrayDeque<>(WINDOW + 1);
        Map<Long, List<LogRecord>> windows = new HashMap<>();
        List<PendingWindow> open = new ArrayList<>();

        LogRecord r;
        long digestBefore = reader.streamDigest();
        while ((r = reader.next()) != null) {
            total++;
            recordedDigest = reader.streamDigest();
            if (!open.isEmpty()) { // only after a violation: most records skip this (and its lambda allocation)
                final LogRecord current = r;
                for (PendingWindow w : open) {
                    w.records().add(current);
                }
                open.removeIf(w -> current.op() - w.op() >= WINDOW);
            }

            if (replaying && until != null && Long.compareUnsigned(r.op(), until) > 0) {
                replaying = false;
            }
            if (replaying) {
                try {
                    Event replayed = stepper.step(r);
                    long vt = stepper.vt();
                    boolean same = replayed.equals(r.event()) && vt == r.vt();
                    // While the replay reproduces every record, its digest is the reader's digest of the recording;
                    // only a divergent record needs hashing on its own.
                    digest = same ? recordedDigest : CanonicalJson.hashRecord(digestBefore, r.op(), vt, replayed);
                    count++;
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
                    if (!same) {
                        divergence = new Divergence(r.op(), CanonicalJson.record(r.op(), r.vt(), r.event()),
                                CanonicalJson.record(r.op(), vt, replayed));
                        replaying = false;
                    }
                } catch (ReplayException e) {
                    replayProblem = e;
                    replaying = false;
                }
            }
            digestBefore = recordedDigest;
            recent.addLast(r);
            if (recent.size() > WINDOW) {
                recent.removeFirst();
            }
        }
        if (replayProblem != null) {
            throw replayProblem;
        }
        List<Violation> violations = divergence == null ? List.copyOf(stepper.violations()) : List.of();
        return new ReplayReport(reader.header(), count, digest, divergence, violations, total, recordedDigest, windows,
                stepper.acceptedWindowedEmpties(), reader.sawEnd());
    }

    /** A violation's event window still waiting for the records after the violating op. */
    private record PendingWindow(long op, List<LogRecord> records) {
    }
}
