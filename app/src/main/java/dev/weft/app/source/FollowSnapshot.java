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
record FollowSnapshot(Path path, LogHeader header, GrowingRecords.View records, TimelineModel timeline,
                      ReportLog reports, ProtocolChecks protocol, List<ViolationInfo> recordedViolations,
                      List<ViolationInfo> replayViolations, Verification verification, StateCache states)
        implements RecordingSource {

    FollowSnapshot {
        recordedViolations = List.copyOf(recordedViolations);
        replayViolations = List.copyOf(replayViolations);
    }

    @Override public int size() { return records.size(); }
    @Override public LogRecord record(int op) { return records.get(op); }

    @Override
    public StateSnapshot stateAt(int op) {
        return states.stateAt(header, records, op);
    }

    @Override
    public List<ViolationInfo> check(Set<String> invariants, Progress progress) {
        List<ViolationInfo> out = new ArrayList<>(IndexedRecordingSource.recordedVerdicts(recordedViolations));
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

    /** The replay stepper of the last state query (after op {@code at}), reused when the next query is later. */
    static final class StateCache {
        private ReplayStepper stepper;
        private long at = -1;

        synchronized StateSnapshot stateAt(LogHeader header, GrowingRecords.View records, int op) {
            try {
                if (stepper == null || op < at) {
                    stepper = ReplayStepper.create(header, List.of());
                    at = -1;
                }
                for (long next = at + 1; next <= op; next++) {
                    stepper.step(records.get(next));
                    at = next;
                }
            } catch (ReplayException e) {
                stepper = null;   // past what replays: nothing to show, as for a log that diverged
                return StateSnapshot.empty(op);
            }
            return StateSnapshot.of(op, stepper.core().snapshot());
        }
    }
}
