package dev.weft.chord;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The papers' failure precondition (invariants-and-checkers.md §5.4): when a node dies, every other
 * surviving node must still have a successor or second successor that has not died. Fed with the
 * reports of {@code send} records in order; once violated it stays violated.
 */
public final class FailureAssumption {

    private final TreeMap<Integer, ChordReport> latest = new TreeMap<>();
    private final List<Integer> dead = new ArrayList<>();
    private boolean violated;
    private long violatedAtOp = -1;

    public void offer(long op, ChordReport r) {
        if (violated) return;
        if (r.alive()) {
            ChordReport old = latest.get(r.ident());
            if (old == null || r.date() >= old.date()) latest.put(r.ident(), r);
            return;
        }
        dead.add(r.ident());
        for (Map.Entry<Integer, ChordReport> e : latest.entrySet()) {
            int id = e.getKey();
            if (id == r.ident() || dead.contains(id)) continue;
            ChordReport s = e.getValue();
            boolean succOk = s.succ() >= 0 && !dead.contains(s.succ());
            boolean succ2Ok = s.succ2() >= 0 && !dead.contains(s.succ2());
            if (!succOk && !succ2Ok) {
                violated = true;
                violatedAtOp = op;
                return;
            }
        }
    }

    public boolean held() {
        return !violated;
    }

    /** The op of the dead report that broke the assumption, or -1. */
    public long violatedAtOp() {
        return violatedAtOp;
    }
}
