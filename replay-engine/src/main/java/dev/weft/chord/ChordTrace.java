package dev.weft.chord;

import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code chord-trace} (invariants-and-checkers.md §5.6): one line per {@code send} report that changes
 * its node's pointers or liveness compared with that node's previous report, with the ring after it;
 * then the final snapshot and, if the ring is gone for good, the op where it broke.
 */
public final class ChordTrace {

    private final StringBuilder lines = new StringBuilder();
    private final ChordSnapshot snapshot = new ChordSnapshot();
    private final Map<Integer, ChordReport> previous = new HashMap<>(); // lookups only, never iterated
    private boolean lastRingNonEmpty = true;
    private long breakOp = -1;

    public void accept(LogRecord r) {
        ChordReport report = ChordReport.fromSend(r);
        if (report == null) return;
        boolean changed = !report.sameTopology(previous.get(report.ident()));
        snapshot.observe(report);
        previous.put(report.ident(), report);
        if (!changed) return;
        List<Integer> ring = snapshot.ringMembers();
        if (ring.isEmpty() && lastRingNonEmpty) breakOp = r.op();
        lastRingNonEmpty = !ring.isEmpty();
        lines.append("op ").append(ChordText.pad(r.op(), 5)).append(" node ").append(ChordText.pad(report.ident(), 3));
        if (report.alive()) {
            lines.append("  succ=").append(ChordText.pad(report.succ(), 3))
                    .append(" succ2=").append(ChordText.pad(report.succ2(), 3))
                    .append(" prdc=").append(ChordText.pad(report.prdc(), 3));
        } else {
            lines.append("  *** FAILED ***");
        }
        lines.append("  ring=").append(ChordText.list(ring)).append('\n');
    }

    /** The complete stdout of {@code chord-trace <LOG>}. */
    public String render(String logName, LogHeader header) {
        StringBuilder sb = new StringBuilder();
        sb.append("=== CHORD STATE TRACE: ").append(logName).append(" (seed ").append(Long.toUnsignedString(header.seed()))
                .append(") ===\n");
        sb.append(lines);
        sb.append("--- final ---\n");
        ChordText.appendSnapshot(sb, snapshot);
        if (snapshot.ringMembers().isEmpty() && breakOp >= 0) {
            sb.append("AtLeastOneRing broke permanently at op ").append(breakOp)
                    .append(" and never recovered through the quiescent tail.\n");
        }
        return sb.toString();
    }

    public static String trace(Iterable<LogRecord> records, String logName, LogHeader header) {
        ChordTrace t = new ChordTrace();
        for (LogRecord r : records) t.accept(r);
        return t.render(logName, header);
    }
}
