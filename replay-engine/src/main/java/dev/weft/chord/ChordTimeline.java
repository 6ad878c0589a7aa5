package dev.weft.chord;

import dev.weft.log.LogRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * The Chord protocol state over a recording, for the workbench: each node's snapshot entry
 * (succ, succ2, prdc, alive) after any op, the ring members and broken invariants after any op, and
 * the op where each invariant first broke. Built once in one pass over the records (the same records
 * chord-check's final snapshot sees: {@code send} of any outcome and delivered {@code recv}); the
 * invariants are evaluated after every report that changes a snapshot entry. Queries are binary
 * searches over change points, O(log n).
 */
public final class ChordTimeline {

    /** What held after a change: the ring members and the violations, in §5.3 order. */
    public record Evaluation(List<Integer> ringMembers, List<ChordViolation> violations) {
        public Evaluation {
            ringMembers = List.copyOf(ringMembers);
            violations = List.copyOf(violations);
        }
    }

    private final long m;
    private final TreeMap<Integer, ChangeSeries<ChordReport>> nodes;
    private final ChangeSeries<Evaluation> evaluations;
    private final Map<String, Long> firstBroken;
    private final long records;

    private ChordTimeline(long m, TreeMap<Integer, ChangeSeries<ChordReport>> nodes, ChangeSeries<Evaluation> evaluations,
                          Map<String, Long> firstBroken, long records) {
        this.m = m;
        this.nodes = nodes;
        this.evaluations = evaluations;
        this.firstBroken = firstBroken;
        this.records = records;
    }

    public static ChordTimeline build(Iterable<LogRecord> records, long m) {
        Builder b = new Builder(m);
        for (LogRecord r : records) b.accept(r);
        return b.build();
    }

    /** Incremental construction, for callers that read records themselves (e.g. from a LogReader). */
    public static final class Builder {
        private final long m;
        private final ChordSnapshot snapshot = new ChordSnapshot();
        private final TreeMap<Integer, ChangeSeries<ChordReport>> nodes = new TreeMap<>();
        private final ChangeSeries<Evaluation> evaluations = new ChangeSeries<>();
        private final Map<String, Long> firstBroken = new LinkedHashMap<>();
        private long records;
        private Evaluation last;

        public Builder(long m) {
            this.m = m;
        }

        public void accept(LogRecord r) {
            records++;
            ChordReport report = ChordReport.fromSendOrDelivery(r);
            if (report == null) return;
            ChordReport before = snapshot.get(report.ident());
            ChordReport after = snapshot.observe(report);
            if (after.equals(before)) return;
            nodes.computeIfAbsent(report.ident(), k -> new ChangeSeries<>()).append(r.op(), after);
            if (before != null && before.sameTopology(after)) return; // only the date moved: nothing to evaluate
            Evaluation now = new Evaluation(snapshot.ringMembers(), ChordInvariants.check(snapshot, m));
            if (!now.equals(last)) {
                evaluations.append(r.op(), now);
                last = now;
            }
            for (ChordViolation v : now.violations()) firstBroken.putIfAbsent(v.invariant(), r.op());
        }

        public ChordTimeline build() {
            Map<String, Long> ordered = new LinkedHashMap<>();
            for (String name : ChordInvariants.NAMES) {
                if (firstBroken.containsKey(name)) ordered.put(name, firstBroken.get(name));
            }
            return new ChordTimeline(m, nodes, evaluations, Collections.unmodifiableMap(ordered), records);
        }
    }

    public long m() {
        return m;
    }

    /** Records seen while building (the recording's length). */
    public long recordCount() {
        return records;
    }

    /** Every ident that ever reported, ascending. */
    public SortedSet<Integer> idents() {
        return Collections.unmodifiableSortedSet(nodes.navigableKeySet());
    }

    /** The snapshot entry of ident after op (alive already folded in: death is permanent), or null. */
    public ChordReport nodeAt(int ident, long op) {
        ChangeSeries<ChordReport> series = nodes.get(ident);
        return series == null ? null : series.at(op);
    }

    /** The whole snapshot after op, by ident ascending. */
    public SortedMap<Integer, ChordReport> snapshotAt(long op) {
        TreeMap<Integer, ChordReport> out = new TreeMap<>();
        for (Map.Entry<Integer, ChangeSeries<ChordReport>> e : nodes.entrySet()) {
            ChordReport r = e.getValue().at(op);
            if (r != null) out.put(e.getKey(), r);
        }
        return out;
    }

    /** The ops at which ident's entry changed (pointers, liveness or date), ascending. */
    public long[] changeOps(int ident) {
        return ChangeSeries.changeOps(nodes.get(ident));
    }

    /** Ring members and violations after op (empty ring and no violations before any report). */
    public Evaluation evaluationAt(long op) {
        Evaluation e = evaluations.at(op);
        return e == null ? new Evaluation(List.of(), List.of()) : e;
    }

    public List<Integer> ringMembersAt(long op) {
        return evaluationAt(op).ringMembers();
    }

    public List<ChordViolation> violationsAt(long op) {
        return evaluationAt(op).violations();
    }

    /** The op after which the invariant was first seen broken, if ever. */
    public OptionalLong firstBroken(String invariant) {
        Long op = firstBroken.get(invariant);
        return op == null ? OptionalLong.empty() : OptionalLong.of(op);
    }

    /** Invariant name → first op broken, in §5.3 order, only for invariants that ever broke. */
    public Map<String, Long> firstBroken() {
        return firstBroken;
    }

    /** The ops where the ring members or the set of violations changed, ascending. */
    public List<Long> evaluationChangeOps() {
        List<Long> out = new ArrayList<>(evaluations.size());
        for (int i = 0; i < evaluations.size(); i++) out.add(evaluations.opAt(i));
        return out;
    }
}
