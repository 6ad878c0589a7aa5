package dev.weft.chord;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The latest known state of each Chord node (invariants-and-checkers.md §5.1) and the relations derived
 * from it (§5.2). Kept sorted by ident so everything computed or printed from it is deterministic.
 */
public final class ChordSnapshot {

    private final TreeMap<Integer, ChordReport> states = new TreeMap<>();

    public ChordSnapshot() {
    }

    public ChordSnapshot(SortedMap<Integer, ChordReport> states) {
        this.states.putAll(states);
    }

    /** Folds a report in: newer-or-equal dates replace, death is permanent. Returns the entry now stored. */
    public ChordReport observe(ChordReport s) {
        ChordReport entry = states.get(s.ident());
        if (entry == null) {
            entry = s;
        }
        boolean wasDead = !entry.alive();
        if (s.date() >= entry.date()) entry = s;
        if (wasDead) entry = entry.withAlive(false);
        states.put(s.ident(), entry);
        return entry;
    }

    public SortedMap<Integer, ChordReport> states() {
        return Collections.unmodifiableSortedMap(states);
    }

    public ChordReport get(int ident) {
        return states.get(ident);
    }

    /** Alive states, ascending by ident. */
    public List<ChordReport> live() {
        List<ChordReport> out = new ArrayList<>();
        for (ChordReport s : states.values()) {
            if (s.alive()) out.add(s);
        }
        return out;
    }

    /** Dead states, ascending by ident (the reference prints them in hash order; we sort). */
    public List<ChordReport> dead() {
        List<ChordReport> out = new ArrayList<>();
        for (ChordReport s : states.values()) {
            if (!s.alive()) out.add(s);
        }
        return out;
    }

    public boolean isLive(int ident) {
        if (ident < 0) return false;
        ChordReport s = states.get(ident);
        return s != null && s.alive();
    }

    public int bestSucc(ChordReport s) {
        if (isLive(s.succ())) return s.succ();
        if (isLive(s.succ2())) return s.succ2();
        return -1;
    }

    public int bestSuccOf(int ident) {
        ChordReport s = states.get(ident);
        return s != null && s.alive() ? bestSucc(s) : -1;
    }

    /** Live nodes whose best-successor walk returns to themselves within |live| + 1 steps, ascending. */
    public List<Integer> ringMembers() {
        List<ChordReport> live = live();
        int n = live.size();
        List<Integer> members = new ArrayList<>();
        for (ChordReport s : live) {
            int cur = bestSucc(s);
            int steps = 0;
            while (cur != -1 && steps <= n) {
                if (cur == s.ident()) {
                    members.add(s.ident());
                    break;
                }
                cur = bestSuccOf(cur);
                steps++;
            }
        }
        return members;
    }

    /** The best-successor walk from x until it ends or returns to x, sorted and deduplicated. */
    public List<Integer> cycleOf(int x) {
        TreeMap<Integer, Boolean> seen = new TreeMap<>();
        seen.put(x, true);
        int cur = bestSuccOf(x);
        // A walk that enters a cycle not through x never ends in the reference; stop once it repeats.
        while (cur != -1 && cur != x && seen.put(cur, true) == null) {
            cur = bestSuccOf(cur);
        }
        return new ArrayList<>(seen.keySet());
    }
}
