package dev.weft.app.source;

import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import dev.weft.replay.ReplayException;
import dev.weft.replay.ReplayStepper;
import dev.weft.timeline.ReportLog;
import dev.weft.timeline.TimelineModel;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A recording that is still being written, as far as it had been read when this snapshot was taken: every record so
 * far (held in memory), its timeline, the violation records and the fifo/dup violations found while following.
 * Immutable like every source; the workbench shows a newer snapshot as the recording grows.
 *
 * <p>The state after an op is replayed from op 0 (the engine's checkpoints come with the finished index); the
 * stepper of the last query is kept, so stepping forward costs one replay step.
 */
final class FollowSnapshot implements RecordingSource {

    private final Path path;
    private final LogHeader header;
    private final GrowingRecords.View records;
    private final TimelineModel timeline;
    private final ReportLog reports;
    private final ProtocolChecks protocol;
    private final List<ViolationInfo> recorded;
    private final List<ViolationInfo> replayViolations;
    private final Verification verification;
    /** The last stateAt query's stepper (after op {@code stepperOp}), reused when the next query is later. */
    private ReplayStepper stepper;
    private long stepperOp = -1;

    FollowSnapshot(Path path, LogHeader header, GrowingRecords.View records, TimelineModel timeline, ReportLog reports,
                   ProtocolChecks protocol, List<ViolationInfo> recorded, List<ViolationInfo> replayViolations,
                   Verification verification) {
        this.path = path;
        this.header = header;
        this.records = records;
        this.timeline = timeline;
        this.reports = reports;
        this.protocol = protocol;
        this.recorded = List.copyOf(recorded);
        this.replayViolations = List.copyOf(replayViolations);
        this.verification = verification;
    }

    @Override public Path path() { return path; }
    @Override public LogHeader header() { return header; }
    @Override public int size() { return records.size(); }
    @Override public LogRecord record(int op) { return records.get(op); }
    @Override public TimelineModel timeline() { return timeline; }
    @Override public ReportLog reports() { return reports; }
    @Override public ProtocolChecks protocol() { return protocol; }
    @Override public Verification verification() { return verification; }
    @Override public List<ViolationInfo> recordedViolations() { return recorded; }

    @Override
    public synchronized StateSnapshot stateAt(int op) {
        try {
            if (stepper == null || op < stepperOp) {
                stepper = ReplayStepper.create(header, List.of());
                stepperOp = -1;
            }
            for (long next = stepperOp + 1; next <= op; next++) {
                stepper.step(records.get(next));
                stepperOp = next;
            }
        } catch (ReplayException e) {
            stepper = null;   // past what replays: nothing to show, as for a log that diverged
            return StateSnapshot.empty(op);
        }
        return StateSnapshot.of(op, stepper.core().snapshot());
    }

    @Override
    public List<ViolationInfo> check(Set<String> invariants, Progress progress) {
        List<ViolationInfo> out = new ArrayList<>();
        for (ViolationInfo v : protocol.violations()) if (invariants.contains(v.invariant())) out.add(v);
        Set<String> wanted = InvariantScan.replayInvariants(invariants, IndexedRecordingSource.BUILD_INVARIANTS);
        // The follower ran every replay invariant on its own instances; a subset's verdict is theirs, filtered.
        for (ViolationInfo v : replayViolations) if (wanted.contains(v.invariant())) out.add(v);
        out.sort(Comparator.comparingLong(ViolationInfo::op));
        return out;
    }

    @Override
    public List<String> availableInvariants() {
        return IndexedRecordingSource.checkableWith(protocol);
    }
}
