package dev.weft.chord;

import dev.weft.log.LogHeader;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Text pieces shared by chord-check and chord-trace (invariants-and-checkers.md §5.5-§5.6). */
public final class ChordText {

    private ChordText() {
    }

    /** {@code [a, b, c]}. */
    public static String list(List<Integer> values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(values.get(i));
        }
        return sb.append(']').toString();
    }

    /** Right-aligned in the given width; wider values are printed in full. */
    public static String pad(long value, int width) {
        String s = Long.toString(value);
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    /** {@code recording : <LOG>  (seed <seed>, net <net>)}. */
    public static String recordingLine(String logName, LogHeader header) {
        return "recording : " + logName + "  (seed " + Long.toUnsignedString(header.seed()) + ", net " + header.net() + ")\n";
    }

    /** The {@code ring members:} line and one line per node: live ones ascending, then dead ones ascending. */
    public static void appendSnapshot(StringBuilder sb, ChordSnapshot s) {
        List<Integer> members = s.ringMembers();
        Set<Integer> memberSet = new TreeSet<>(members);
        sb.append("ring members: ").append(list(members)).append('\n');
        for (ChordReport r : s.live()) {
            sb.append("  node ").append(pad(r.ident(), 3))
                    .append(": succ=").append(pad(r.succ(), 3))
                    .append(" succ2=").append(pad(r.succ2(), 3))
                    .append(" prdc=").append(pad(r.prdc(), 3))
                    .append(" bestSucc=").append(pad(s.bestSucc(r), 3))
                    .append(memberSet.contains(r.ident()) ? " [ring]" : " [appendage]").append('\n');
        }
        for (ChordReport r : s.dead()) {
            sb.append("  node ").append(pad(r.ident(), 3)).append(": FAILED\n");
        }
    }

    /** {@code ===... title ===...} with 15 {@code =} on each side. */
    public static String titleLine(String title) {
        return "=".repeat(15) + " " + title + " " + "=".repeat(15) + "\n";
    }
}
