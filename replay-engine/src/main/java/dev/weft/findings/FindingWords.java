package dev.weft.findings;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A finding in plain words, from its invariant and the checker's message (docs/workbench.md "What is on screen"):
 * what happened, to whom, and at which op. The same words in the workbench's violation bar and in
 * {@code weft explain}.
 */
public final class FindingWords {

    private FindingWords() { }

    private static final Pattern FIFO = Pattern.compile(
            "channel (\\S+) → (\\S+): datagram with send order (\\d+) delivered after send order (\\d+) \\(reordered\\)");
    private static final Pattern DUP = Pattern.compile("datagram tie=(\\d+) delivered twice \\(first at op (\\d+)\\)");
    private static final Pattern APPENDAGE = Pattern.compile("appendage member (-?\\d+) cannot reach the ring via best successors");
    private static final Pattern BETWEEN = Pattern.compile("ring member (-?\\d+) lies between adjacent (-?\\d+) -> (-?\\d+)");
    private static final Pattern SPLIT = Pattern.compile("ring split: (\\d+) ring members but the cycle through (-?\\d+) has (\\d+)");
    private static final Pattern TWO_LEADERS = Pattern.compile("term (-?\\d+): leaders \\[(-?\\d+), (-?\\d+)\\] \\(second leader at op (\\d+)\\)");

    public static String plain(Finding f) {
        return plain(f.invariant(), f.op(), f.message());
    }

    /** The plain words for a violation of invariant at op with the checker's message. */
    public static String plain(String invariant, long op, String message) {
        Matcher m = FIFO.matcher(message);
        if (m.matches()) {
            return m.group(2) + " received datagram #" + m.group(3) + " from " + m.group(1) + " after it had already received #"
                    + m.group(4) + ": the network reordered them, and the receiver saw them out of order at op " + op + ".";
        }
        m = DUP.matcher(message);
        if (m.matches()) {
            return "The same datagram (tie " + m.group(1) + ") was delivered a second time at op " + op
                    + "; it was first delivered at op " + m.group(2) + ".";
        }
        String sinceChord = "broken from op " + op + " to the end of the run";
        m = APPENDAGE.matcher(message);
        if (m.matches()) {
            return "Chord node " + m.group(1) + " is alive but cut off: following its best successors never reaches the ring, "
                    + "so lookups starting at " + m.group(1) + " can never be answered (" + sinceChord + ").";
        }
        m = BETWEEN.matcher(message);
        if (m.matches()) {
            return "The ring is out of order: member " + m.group(1) + " lies between " + m.group(2) + " and its successor "
                    + m.group(3) + ", so the ring skips it (" + sinceChord + ").";
        }
        m = SPLIT.matcher(message);
        if (m.matches()) {
            return "The ring split: " + m.group(1) + " nodes are on rings, but the ring through node " + m.group(2) + " has only "
                    + m.group(3) + " of them (" + sinceChord + ").";
        }
        if (invariant.equals("AtLeastOneRing")) {
            return "There is no ring: following the live nodes' best successors never comes back round (" + sinceChord + ").";
        }
        m = TWO_LEADERS.matcher(message);
        if (m.matches()) {
            return "Two leaders in term " + m.group(1) + ": node " + m.group(2) + " was elected first, then node " + m.group(3)
                    + " at op " + m.group(4) + ". Raft allows at most one leader per term.";
        }
        return switch (FindingKind.of(invariant)) {
            case DEADLOCK -> "Deadlock at op " + op + ": every live node waits and nothing is in flight or scheduled"
                    + (message.isEmpty() ? "." : ": " + message);
            case STREAM -> "A stream delivered bytes that were not written, out of order or twice, at op " + op
                    + (message.isEmpty() ? "." : ": " + message);
            case CHORD -> invariant + " is " + sinceChord + ": " + message;
            default -> invariant + " broke at op " + op + (message.isEmpty() ? "." : ": " + message);
        };
    }
}
