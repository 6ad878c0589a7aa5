package dev.weft.raft;

import dev.weft.log.LogRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * {@code raft-check} (invariants-and-checkers.md §6): ElectionSafety over every state report of the
 * {@code send} records, in order. Feed records, then {@link #result()}.
 */
public final class RaftCheck {

    private long reports;
    private long restarts;
    private final TreeMap<Integer, List<Integer>> leaders = new TreeMap<>();
    private final List<RaftViolation> violations = new ArrayList<>();

    public void accept(LogRecord r) {
        RaftReport report = RaftReport.fromSend(r);
        if (report == null) return;
        reports++;
        if (!report.alive()) {
            restarts++;
            return;
        }
        if (report.role() != RaftReport.LEADER) return;
        List<Integer> termLeaders = leaders.computeIfAbsent(report.term(), t -> new ArrayList<>());
        if (termLeaders.contains(report.node())) return;
        termLeaders.add(report.node());
        if (termLeaders.size() == 2) {
            violations.add(new RaftViolation(report.term(), termLeaders.get(0), termLeaders.get(1), r.op()));
        }
    }

    public RaftCheckResult result() {
        SortedMap<Integer, List<Integer>> copy = new TreeMap<>();
        leaders.forEach((term, nodes) -> copy.put(term, List.copyOf(nodes)));
        return new RaftCheckResult(reports, restarts, copy, violations);
    }

    public static RaftCheckResult check(Iterable<LogRecord> records) {
        RaftCheck c = new RaftCheck();
        for (LogRecord r : records) c.accept(r);
        return c.result();
    }
}
