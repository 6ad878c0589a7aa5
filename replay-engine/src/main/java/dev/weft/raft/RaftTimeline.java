package dev.weft.raft;

import dev.weft.chord.ChangeSeries;
import dev.weft.log.LogRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * The Raft protocol state over a recording, for the workbench: each node's latest report (role, term,
 * alive, votedFor) after any op, and the ops where a node became leader of a term for the first time.
 * Built once from the {@code send} reports (as raft-check reads them); queries are O(log n).
 */
public final class RaftTimeline {

    /** A node first reported as leader of term at op. */
    public record Election(long op, int term, int node) {
    }

    private final TreeMap<Integer, ChangeSeries<RaftReport>> nodes;
    private final List<Election> elections;
    private final long[] electionOps;
    private final List<RaftViolation> violations;

    private RaftTimeline(TreeMap<Integer, ChangeSeries<RaftReport>> nodes, List<Election> elections, List<RaftViolation> violations) {
        this.nodes = nodes;
        this.elections = List.copyOf(elections);
        this.electionOps = elections.stream().mapToLong(Election::op).toArray();
        this.violations = List.copyOf(violations);
    }

    public static RaftTimeline build(Iterable<LogRecord> records) {
        Builder b = new Builder();
        for (LogRecord r : records) b.accept(r);
        return b.build();
    }

    public static final class Builder {
        private final TreeMap<Integer, ChangeSeries<RaftReport>> nodes = new TreeMap<>();
        private final List<Election> elections = new ArrayList<>();
        private final Set<Long> leaderOfTerm = new HashSet<>(); // (term, node) pairs seen; lookups only
        private final RaftCheck check = new RaftCheck();

        public void accept(LogRecord r) {
            RaftReport report = RaftReport.fromSend(r);
            if (report == null) return;
            check.accept(r);
            ChangeSeries<RaftReport> series = nodes.computeIfAbsent(report.node(), k -> new ChangeSeries<>());
            RaftReport last = series.last();
            if (last == null || !sameState(last, report)) series.append(r.op(), report);
            if (report.isLeader() && leaderOfTerm.add(((long) report.term() << 32) | (report.node() & 0xFFFF_FFFFL))) {
                elections.add(new Election(r.op(), report.term(), report.node()));
            }
        }

        public RaftTimeline build() {
            return new RaftTimeline(nodes, elections, check.result().violations());
        }

        private static boolean sameState(RaftReport a, RaftReport b) {
            return a.alive() == b.alive() && a.term() == b.term() && a.role() == b.role() && a.votedFor() == b.votedFor();
        }
    }

    /** Every node that ever reported, ascending. */
    public SortedSet<Integer> nodes() {
        return Collections.unmodifiableSortedSet(nodes.navigableKeySet());
    }

    /** The node's latest report at or before op (a dead report marks a crash-restart tick), or null. */
    public RaftReport stateAt(int node, long op) {
        ChangeSeries<RaftReport> s = nodes.get(node);
        return s == null ? null : s.at(op);
    }

    /** Role after op, or -1 when the node has not reported yet. */
    public int roleAt(int node, long op) {
        RaftReport r = stateAt(node, op);
        return r == null ? -1 : r.role();
    }

    /** Term after op, or null before the node's first report. */
    public Integer termAt(int node, long op) {
        RaftReport r = stateAt(node, op);
        return r == null ? null : r.term();
    }

    /** The ops at which the node's (alive, term, role, votedFor) changed, ascending. */
    public long[] changeOps(int node) {
        return ChangeSeries.changeOps(nodes.get(node));
    }

    /** Every election in op order. */
    public List<Election> elections() {
        return elections;
    }

    /** The elections at or before op. */
    public List<Election> electionsUpTo(long op) {
        int lo = 0, hi = electionOps.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(electionOps[mid], op) <= 0) lo = mid + 1;
            else hi = mid;
        }
        return elections.subList(0, lo);
    }

    /** ElectionSafety violations, as raft-check reports them. */
    public List<RaftViolation> violations() {
        return violations;
    }
}
