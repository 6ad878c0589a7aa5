package dev.weft.timeline.chord;

import dev.weft.chord.ChordInvariants;
import dev.weft.chord.ChordReport;
import dev.weft.chord.ChordSnapshot;
import dev.weft.chord.ChordTimeline;
import dev.weft.chord.ChordViolation;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the Chord ring view shows after one op, toolkit-free so tests can read it: every reported node with
 * its pointers, the ring members, the invariants broken at that op and, for each, the nodes and pointers
 * that break it ("offenders") and a sentence that names it in plain words.
 *
 * @param offenders   idents drawn with a red outline
 * @param badPointers pointers drawn red, as {from, to} pairs (the best-successor path an appendage follows,
 *                    or the ring edge another member lies inside)
 */
public record ChordRingState(long op, SortedMap<Integer, ChordReport> nodes, List<Integer> members,
                             List<ChordViolation> violations, Set<Integer> offenders, List<int[]> badPointers,
                             String headline) {

    private static final Pattern APPENDAGE = Pattern.compile("appendage member (-?\\d+) cannot reach.*");
    private static final Pattern BETWEEN = Pattern.compile("ring member (-?\\d+) lies between adjacent (-?\\d+) -> (-?\\d+)");

    /**
     * "at this op, and still at the end of the run" or "at this op (holds again from op N)": the op a Chord verdict is
     * judged on is the end, so the words say whether what is broken here is what the checker reports.
     */
    static String whenBroken(ChordTimeline t, long op, Set<String> names) {
        long repaired = -1;
        for (long change : t.evaluationChangeOps()) {
            if (change <= op) continue;
            Set<String> now = new TreeSet<>();
            for (ChordViolation v : t.violationsAt(change)) now.add(v.invariant());
            if (!now.containsAll(names)) {
                repaired = change;
                break;
            }
        }
        return repaired < 0 ? "at this op, and still at the end of the run" : "at this op (holds again from op " + repaired + ")";
    }

    public static ChordRingState at(ChordTimeline t, long op) {
        SortedMap<Integer, ChordReport> nodes = t.snapshotAt(op);
        ChordTimeline.Evaluation e = t.evaluationAt(op);
        ChordSnapshot snap = new ChordSnapshot(nodes);
        Set<Integer> offenders = new TreeSet<>();
        List<int[]> pointers = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (ChordViolation v : e.violations()) {
            switch (v.invariant()) {
                case ChordInvariants.CONNECTED_APPENDAGES -> {
                    Matcher m = APPENDAGE.matcher(v.detail());
                    if (!m.matches()) break;
                    int a = Integer.parseInt(m.group(1));
                    offenders.add(a);
                    // The dead end it runs into: the best-successor path from a, until it stops or repeats.
                    Set<Integer> seen = new TreeSet<>();
                    int cur = a;
                    while (cur != -1 && seen.add(cur)) {
                        ChordReport r = nodes.get(cur);
                        int next = r == null || !r.alive() ? -1 : snap.bestSucc(r);
                        int shown = next != -1 ? next : r == null ? -1 : r.succ();
                        if (shown >= 0 && shown != cur) pointers.add(new int[] {cur, shown});
                        cur = next;
                    }
                    words.add("node " + a + " cannot reach the ring");
                }
                case ChordInvariants.ORDERED_RING -> {
                    Matcher m = BETWEEN.matcher(v.detail());
                    if (!m.matches()) break;
                    int n3 = Integer.parseInt(m.group(1)), n1 = Integer.parseInt(m.group(2)), n2 = Integer.parseInt(m.group(3));
                    offenders.add(n3);
                    pointers.add(new int[] {n1, n2});
                    words.add(n3 + " lies between " + n1 + " → " + n2);
                }
                case ChordInvariants.AT_MOST_ONE_RING -> {
                    List<Integer> cycle = e.ringMembers().isEmpty() ? List.of() : snap.cycleOf(e.ringMembers().get(0));
                    for (int member : e.ringMembers()) if (!cycle.contains(member)) offenders.add(member);
                    words.add("the ring split in two");
                }
                case ChordInvariants.AT_LEAST_ONE_RING -> {
                    for (ChordReport r : snap.live()) offenders.add(r.ident());
                    words.add("no ring at all");
                }
                default -> { }
            }
        }
        String headline = "";
        if (!e.violations().isEmpty()) {
            TreeSet<String> names = new TreeSet<>();
            for (ChordViolation v : e.violations()) names.add(v.invariant());
            headline = String.join(", ", names) + " broken " + whenBroken(t, op, names) + ": " + String.join("; ", new TreeSet<>(words));
        } else {
            // Nothing broken here; say so when the run ends broken, so "holds here" is not read as "holds at the end".
            long last = t.evaluationChangeOps().isEmpty() ? -1 : t.evaluationChangeOps().get(t.evaluationChangeOps().size() - 1);
            TreeSet<String> atEnd = new TreeSet<>();
            if (last >= 0) for (ChordViolation v : t.violationsAt(last)) atEnd.add(v.invariant());
            if (!atEnd.isEmpty()) headline = "holds at this op; " + String.join(", ", atEnd) + " broken at the end of the run";
        }
        return new ChordRingState(op, nodes, e.ringMembers(), e.violations(), offenders, pointers, headline);
    }
}
