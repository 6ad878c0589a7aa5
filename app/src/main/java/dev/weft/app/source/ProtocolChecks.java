package dev.weft.app.source;

import dev.weft.chord.ChordCheck;
import dev.weft.chord.ChordCheckResult;
import dev.weft.chord.ChordInvariants;
import dev.weft.chord.ChordTimeline;
import dev.weft.chord.ChordViolation;
import dev.weft.export.ProtocolViolations;
import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.raft.RaftCheckResult;
import dev.weft.raft.RaftCheck;
import dev.weft.raft.RaftTimeline;
import dev.weft.timeline.ReportLog;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * The case-study protocol invariants of a recording (invariants-and-checkers.md §5, §6), evaluated with the
 * engine's own checkers in the same pass that indexes the file: Chord (AtLeastOneRing, AtMostOneRing,
 * OrderedRing, ConnectedAppendages, over time and at the end) or Raft (ElectionSafety). Which protocol a
 * recording speaks is read from its reports' shape ({@link ReportLog#looksLikeRaft()}); a recording without
 * reports has none.
 *
 * <p>The verdict is the one {@code weft check chord LOG 6} / {@code weft check raft LOG} prints. Chord's checker
 * names no op (it judges the final state), so a Chord violation is placed at the op after which it held
 * continuously to the end: the op whose report broke the ring for good.
 *
 * @param protocol   which protocol the recording speaks (by its reports' shape), or NONE
 * @param chord      the Chord state over time, or null when the recording is not a Chord run
 * @param raft       the Raft state over time, or null when the recording is not a Raft run
 * @param verdict    the checker's verdict line (after "verdict   : "), or "" when there is no protocol
 * @param exitCode   the checker's exit code: 0 OK, 2 violation, 3 discard; 0 without a protocol
 * @param violations the violations the checker's verdict rests on, sorted by op
 * @param episodes   every stretch over which a Chord invariant was broken (transient ones too), by start op
 */
public record ProtocolChecks(Protocol protocol, ChordTimeline chord, RaftTimeline raft, String verdict, int exitCode,
                             List<ViolationInfo> violations, List<Episode> episodes) {

    public enum Protocol { NONE, CHORD, RAFT }

    public static final String ELECTION_SAFETY = ProtocolViolations.ELECTION_SAFETY;
    /** Chord identifier bits the case study uses (the checker's default). */
    public static final long CHORD_BITS = 6;

    /** One stretch of ops over which a Chord invariant was broken: [fromOp, toOp], toOp = -1 when still broken at the end. */
    public record Episode(String invariant, long fromOp, long toOp) { }

    /** Keeps its own copies of the lists. */
    public ProtocolChecks {
        violations = List.copyOf(violations);
        episodes = List.copyOf(episodes);
    }

    public static ProtocolChecks none() {
        return new ProtocolChecks(Protocol.NONE, null, null, "", 0, List.of(), List.of());
    }

    /** Invariant names checked for this recording, in the checker's order. */
    public List<String> names() {
        return switch (protocol) {
            case CHORD -> ChordInvariants.NAMES;
            case RAFT -> List.of(ELECTION_SAFETY);
            case NONE -> List.of();
        };
    }

    /** The command that prints the same verdict. */
    public String command(java.nio.file.Path log) {
        return switch (protocol) {
            case CHORD -> "weft check chord " + log + " " + CHORD_BITS;
            case RAFT -> "weft check raft " + log;
            case NONE -> "";
        };
    }

    /** Collects the protocol state while a recording is read once, in file order. */
    public static final class Builder {
        private final ReportLog.Builder shape = new ReportLog.Builder();
        private final ChordTimeline.Builder chord = new ChordTimeline.Builder(CHORD_BITS);
        private final ChordCheck chordCheck = new ChordCheck(CHORD_BITS);
        private final RaftTimeline.Builder raft = new RaftTimeline.Builder();
        private final RaftCheck raftCheck = new RaftCheck();
        private boolean any;

        public void accept(LogRecord r) {
            // Cheap reject first: most records of a large log carry no report (ReportLog.parse looks for "RPT").
            String payload = r.event() instanceof Event.Send s ? s.payload()
                    : r.event() instanceof Event.Recv rv && rv.outcome() instanceof RecvOutcome.Delivered d ? d.payload() : null;
            if (payload == null || ReportLog.parse(payload) == null) return;
            any = true;
            shape.add(r);
            chord.accept(r);
            chordCheck.accept(r);
            raft.accept(r);
            raftCheck.accept(r);
        }

        /** vtOf: the virtual time of an op (to place each violation on the time axis). */
        public ProtocolChecks build(LongUnaryOperator vtOf) {
            if (!any) return none();
            ReportLog reports = shape.build();
            if (reports.size() == 0) return none();
            if (reports.looksLikeRaft()) {
                RaftCheckResult result = raftCheck.result();
                return new ProtocolChecks(Protocol.RAFT, null, raft.build(), result.verdict(), result.exitCode(),
                        placed(ProtocolViolations.raft(result), vtOf), List.of());
            }
            ChordTimeline timeline = chord.build();
            ChordCheckResult result = chordCheck.result();
            return new ProtocolChecks(Protocol.CHORD, timeline, null, result.verdict(), result.exitCode(),
                    placed(ProtocolViolations.chord(timeline, result), vtOf), episodesOf(timeline));
        }

        private static List<ViolationInfo> placed(List<ProtocolViolations.Placed> in, LongUnaryOperator vtOf) {
            List<ViolationInfo> out = new ArrayList<>();
            for (ProtocolViolations.Placed p : in) out.add(new ViolationInfo(p.invariant(), p.op(), vtOf.applyAsLong(p.op()), p.detail()));
            return out;
        }

        private static List<Episode> episodesOf(ChordTimeline t) {
            List<Episode> out = new ArrayList<>();
            java.util.Map<String, Long> open = new java.util.LinkedHashMap<>();
            for (long op : t.evaluationChangeOps()) {
                java.util.Set<String> now = new java.util.TreeSet<>();
                for (ChordViolation v : t.violationsAt(op)) now.add(v.invariant());
                for (var it = open.entrySet().iterator(); it.hasNext(); ) {
                    var e = it.next();
                    if (!now.contains(e.getKey())) {
                        out.add(new Episode(e.getKey(), e.getValue(), op - 1));
                        it.remove();
                    }
                }
                for (String n : ChordInvariants.NAMES) if (now.contains(n)) open.putIfAbsent(n, op);
            }
            for (var e : open.entrySet()) out.add(new Episode(e.getKey(), e.getValue(), -1));
            out.sort(java.util.Comparator.comparingLong(Episode::fromOp).thenComparing(Episode::invariant));
            return out;
        }
    }
}
