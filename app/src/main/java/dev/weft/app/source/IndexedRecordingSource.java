package dev.weft.app.source;

import dev.weft.check.EventText;
import dev.weft.check.Violation;
import dev.weft.core.CoreState;
import dev.weft.findings.FindingKind;
import dev.weft.protocol.Protocols;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import dev.weft.log.WeftLogException;
import dev.weft.replay.IndexStatus;
import dev.weft.replay.LogIndex;
import dev.weft.timeline.ReportLog;
import dev.weft.timeline.TimelineModel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;

/**
 * A recording opened through the replay engine's {@link LogIndex}: one streaming pass verifies, replays,
 * checks fifo + dup and feeds the timeline model; afterwards any record or state is a seek plus fewer
 * than 1024 replay steps away. A file that fails part-way opens up to the problem.
 */
public final class IndexedRecordingSource implements RecordingSource {

    static final List<String> BUILD_INVARIANTS = List.of("per-channel-fifo", "no-duplicate-delivery");
    /**
     * Publish a partial timeline after this many records, then at every 4x, so something is on screen early
     * while a big file loads and the picture fills in (each snapshot copies ~16 bytes per record so far).
     */
    static final int FIRST_PREVIEW = 2_048;

    private final Path path;
    private final LogIndex index;
    private final TimelineModel timeline;
    private final Verification verification;
    private final int size;
    private final ReportLog reports;
    private final ProtocolChecks protocol;
    private final List<ViolationInfo> recorded;

    private IndexedRecordingSource(Path path, LogIndex index, TimelineModel timeline, ReportLog reports,
                                   ProtocolChecks protocol, List<ViolationInfo> recorded) {
        this.reports = reports;
        this.protocol = protocol;
        this.recorded = List.copyOf(recorded);
        this.path = path;
        this.index = index;
        this.timeline = timeline;
        this.size = (int) Math.min(Integer.MAX_VALUE, index.size());
        this.verification = verificationOf(index);
    }

    public static IndexedRecordingSource open(Path file, Progress progress) throws RecordingOpener.OpenException, InterruptedException {
        if (!Files.isRegularFile(file)) {
            throw new RecordingOpener.OpenException(file + ": " + (Files.exists(file) ? "not a regular file" : "no such file"));
        }
        RecordCollector collected = new RecordCollector();
        LogIndex index;
        long started = System.nanoTime();
        try {
            index = LogIndex.build(file, BUILD_INVARIANTS, LogIndex.DEFAULT_CHECKPOINT_EVERY,
                    (record, replayed) -> {
                        collected.accept(record);
                        int n = collected.size();
                        if (n >= FIRST_PREVIEW && Integer.bitCount(n) == 1 && Integer.numberOfTrailingZeros(n) % 2 == 1) {
                            progress.preview(collected.timeline.snapshot());
                        }
                    },
                    (fraction, records) -> {
                        progress.update(LoadPhases.overall(LoadPhases.Phase.READING, fraction),
                                LoadPhases.describe(LoadPhases.Phase.READING, fraction, records, System.nanoTime() - started));
                    },
                    progress::cancelled, LogIndex.defaultCacheDir());
        } catch (WeftLogException e) {
            throw new RecordingOpener.OpenException(file + ": " + e.getMessage());
        } catch (IOException e) {
            throw new RecordingOpener.OpenException(file + ": I/O error: " + e.getMessage());
        } catch (CancellationException e) {
            throw new InterruptedException("cancelled");
        }
        progress.update(LoadPhases.overall(LoadPhases.Phase.CHECKS, 0), LoadPhases.describe(LoadPhases.Phase.CHECKS, 0, collected.size(),
                System.nanoTime() - started));
        return of(file, index, collected);
    }

    /** A source over a finished index and what was collected from its records (a plain open, or a follow that ended). */
    static IndexedRecordingSource of(Path file, LogIndex index, RecordCollector collected) {
        TimelineModel model = collected.timeline.build();
        ProtocolChecks checks = RecordCollector.protocolChecks(collected.protocol, model);
        return new IndexedRecordingSource(file, index, model, collected.reports.build(), checks, collected.recorded);
    }

    /** What a recording can be checked for: the replay invariants, then its protocol's checkers. */
    static List<String> checkableWith(ProtocolChecks protocol) {
        List<String> all = new ArrayList<>(BUILD_INVARIANTS);
        all.addAll(protocol.names());
        return all;
    }

    /**
     * The violation records that are verdicts about the program and that no checker here finds again (a deadlock, a
     * stream's integrity, a history): always shown, since nothing can be unticked to hide what the recorder saw.
     */
    static List<ViolationInfo> recordedVerdicts(List<ViolationInfo> recorded) {
        List<ViolationInfo> out = new ArrayList<>();
        for (ViolationInfo v : recorded) {
            // A protocol's own invariants are its checker's to find again.
            if (FindingKind.of(v.invariant()).verdict() && Protocols.owning(v.invariant()) == null) out.add(v);
        }
        return out;
    }

    private static Verification verificationOf(LogIndex index) {
        IndexStatus s = index.status();
        return switch (s.kind()) {
            case OK -> Verification.verified(Fnv1a.hex16(index.digest()));
            case READ_ERROR -> Verification.readError(s.firstBadOp(), s.line(), s.message());
            case REPLAY_ERROR -> Verification.diverged(s.firstBadOp(), "replay failed: " + s.message());
            case DIVERGED -> Verification.diverged(s.firstBadOp(), s.message()
                    + (s.divergence() == null ? "" : "; recorded " + s.divergence().recorded() + " but replay produced " + s.divergence().replayed()));
        };
    }

    @Override public Path path() { return path; }
    @Override public LogHeader header() { return index.header(); }
    @Override public int size() { return size; }
    @Override public TimelineModel timeline() { return timeline; }
    @Override public ReportLog reports() { return reports; }
    @Override public Verification verification() { return verification; }
    @Override public ProtocolChecks protocol() { return protocol; }
    @Override public List<ViolationInfo> recordedViolations() { return recorded; }

    @Override
    public List<String> availableInvariants() {
        return IndexedRecordingSource.checkableWith(protocol);
    }

    @Override
    public LogRecord record(int op) {
        try {
            return index.record(op);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String[] eventLines(int from, int to) {
        List<LogRecord> records;
        try {
            records = index.records(from, to - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String[] lines = new String[records.size()];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = EventText.line(records.get(i).event());
        }
        return lines;
    }

    @Override
    public String eventLine(int op, LogRecord record) {
        return EventText.line(record.event());
    }

    @Override
    public List<LogRecord> records(int from, int to) {
        try {
            return index.records(from, to - 1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public StateSnapshot stateAt(int op) {
        if (op >= index.replayableOps()) return StateSnapshot.empty(op);
        CoreState s;
        try {
            s = index.stateAt(op);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return StateSnapshot.of(op, s);
    }

    @Override
    public List<ViolationInfo> check(Set<String> invariants, Progress progress) throws InterruptedException {
        List<ViolationInfo> out = new ArrayList<>(recordedVerdicts(recorded));
        for (ViolationInfo v : protocol.violations()) if (invariants.contains(v.invariant())) out.add(v);
        Set<String> others = new TreeSet<>(invariants);
        others.removeAll(protocol.names());
        Set<String> wanted = InvariantScan.replayInvariants(others, BUILD_INVARIANTS);
        if (wanted.equals(new TreeSet<>(BUILD_INVARIANTS))) {
            for (Violation v : index.violations()) out.add(new ViolationInfo(v.invariant(), v.op(), v.vt(), v.message()));
        } else if (!wanted.isEmpty()) {
            out.addAll(InvariantScan.run(wanted, BUILD_INVARIANTS, index.replayableOps(), op -> record((int) op), progress));
        }
        out.sort(Comparator.comparingLong(ViolationInfo::op));
        return out;
    }

    @Override
    public void close() {
        try {
            index.close();
        } catch (IOException e) {
            // Closing a read-only index: nothing the user can act on.
        }
    }
}
