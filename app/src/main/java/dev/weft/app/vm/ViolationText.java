package dev.weft.app.vm;

import dev.weft.app.source.ViolationInfo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A plain-English line for a violation, from its invariant and message (invariants-and-checkers.md §2). */
public final class ViolationText {

    private ViolationText() { }

    private static final Pattern FIFO = Pattern.compile(
            "channel (\\S+) → (\\S+): datagram with send order (\\d+) delivered after send order (\\d+) \\(reordered\\)");
    private static final Pattern DUP = Pattern.compile("datagram tie=(\\d+) delivered twice \\(first at op (\\d+)\\)");

    private static final Pattern APPENDAGE = Pattern.compile("appendage member (-?\\d+) cannot reach the ring via best successors");
    private static final Pattern BETWEEN = Pattern.compile("ring member (-?\\d+) lies between adjacent (-?\\d+) -> (-?\\d+)");
    private static final Pattern SPLIT = Pattern.compile("ring split: (\\d+) ring members but the cycle through (-?\\d+) has (\\d+)");
    private static final Pattern TWO_LEADERS = Pattern.compile("term (-?\\d+): leaders \\[(-?\\d+), (-?\\d+)\\] \\(second leader at op (\\d+)\\)");

    public static String plainEnglish(ViolationInfo v) {
        Matcher m = FIFO.matcher(v.message());
        if (m.matches()) {
            return m.group(2) + " received datagram #" + m.group(3) + " from " + m.group(1) + " after it had already received #"
                    + m.group(4) + ": the network reordered them, and the receiver saw them out of order at op " + v.op() + ".";
        }
        m = DUP.matcher(v.message());
        if (m.matches()) {
            return "The same datagram (tie " + m.group(1) + ") was delivered a second time at op " + v.op()
                    + "; it was first delivered at op " + m.group(2) + ".";
        }
        m = APPENDAGE.matcher(v.message());
        if (m.matches()) {
            return "Chord node " + m.group(1) + " is alive but cut off: following its best successors never reaches the ring, "
                    + "so lookups starting at " + m.group(1) + " can never be answered. It has been so since op " + v.op() + ".";
        }
        m = BETWEEN.matcher(v.message());
        if (m.matches()) {
            return "The ring is out of order: member " + m.group(1) + " lies between " + m.group(2) + " and its successor "
                    + m.group(3) + ", so the ring skips it (since op " + v.op() + ").";
        }
        m = SPLIT.matcher(v.message());
        if (m.matches()) {
            return "The ring split: " + m.group(1) + " nodes are on rings, but the ring through node " + m.group(2) + " has only "
                    + m.group(3) + " of them (since op " + v.op() + ").";
        }
        if (v.invariant().equals("AtLeastOneRing")) {
            return "There is no ring: following the live nodes' best successors never comes back round (since op " + v.op() + ").";
        }
        m = TWO_LEADERS.matcher(v.message());
        if (m.matches()) {
            return "Two leaders in term " + m.group(1) + ": node " + m.group(2) + " was elected first, then node " + m.group(3)
                    + " at op " + m.group(4) + ". Raft allows at most one leader per term.";
        }
        return v.invariant() + " broke at op " + v.op() + ": " + v.message();
    }
}
