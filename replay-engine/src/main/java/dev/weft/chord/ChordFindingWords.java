package dev.weft.chord;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Chord's violations in plain words (docs/workbench.md "What is on screen"), from chord-check's messages. */
final class ChordFindingWords {

    private static final Pattern APPENDAGE = Pattern.compile("appendage member (-?\\d+) cannot reach the ring via best successors");
    private static final Pattern BETWEEN = Pattern.compile("ring member (-?\\d+) lies between adjacent (-?\\d+) -> (-?\\d+)");
    private static final Pattern SPLIT = Pattern.compile("ring split: (\\d+) ring members but the cycle through (-?\\d+) has (\\d+)");

    private ChordFindingWords() { }

    /** The words for a ring invariant's violation, or null when the invariant is not Chord's. */
    static String plain(String invariant, long op, String message) {
        String since = "broken from op " + op + " to the end of the run";
        Matcher m = APPENDAGE.matcher(message);
        if (m.matches()) {
            return "Chord node " + m.group(1) + " is alive but cut off: following its best successors never reaches the ring, "
                    + "so lookups starting at " + m.group(1) + " can never be answered (" + since + ").";
        }
        m = BETWEEN.matcher(message);
        if (m.matches()) {
            return "The ring is out of order: member " + m.group(1) + " lies between " + m.group(2) + " and its successor "
                    + m.group(3) + ", so the ring skips it (" + since + ").";
        }
        m = SPLIT.matcher(message);
        if (m.matches()) {
            return "The ring split: " + m.group(1) + " nodes are on rings, but the ring through node " + m.group(2) + " has only "
                    + m.group(3) + " of them (" + since + ").";
        }
        if (invariant.equals(ChordInvariants.AT_LEAST_ONE_RING)) {
            return "There is no ring: following the live nodes' best successors never comes back round (" + since + ").";
        }
        if (ChordInvariants.NAMES.contains(invariant)) return invariant + " is " + since + ": " + message;
        return null;
    }
}
