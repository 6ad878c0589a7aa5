package dev.weft.timeline;

import dev.weft.chord.StateReportPayload;
import dev.weft.log.Event;
import dev.weft.log.LogRecord;

import java.util.Arrays;

/**
 * The state reports ("RPT" + six integers, invariants-and-checkers.md §4) that case-study nodes sent, in op
 * order, as primitive arrays: the input of the Chord ring and Raft terms views. Only sends count (any
 * outcome): a report says what its sender believed when it sent it.
 */
public final class ReportLog {

    private final int[] ops;
    private final int[][] fields;   // fields[k][i]: field k of report i
    private final int size;

    private ReportLog(int[] ops, int[][] fields, int size) {
        this.ops = ops;
        this.fields = fields;
        this.size = size;
    }

    public static ReportLog empty() {
        return new Builder().build();
    }

    public int size() { return size; }
    public int op(int i) { return ops[i]; }
    /** Field k (0..5) of report i. */
    public int field(int i, int k) { return fields[k][i]; }

    /**
     * Whether these read as Raft reports (node, date, alive, term, role 0..2, votedFor >= -1) rather than Chord
     * ones (ident, date, alive, succ, succ2, prdc): in a Chord run the role position holds identifiers.
     */
    public boolean looksLikeRaft() {
        if (size == 0) return false;
        for (int i = 0; i < size; i++) {
            if (fields[4][i] < 0 || fields[4][i] > 2 || fields[3][i] < 0 || fields[5][i] < -1) return false;
        }
        return true;
    }

    /** Number of reports sent at or before op. */
    public int countUpTo(int op) {
        int lo = 0, hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (ops[mid] <= op) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /**
     * The six fields of a report payload (invariants-and-checkers.md §4), or null when it is not one. Parsing is the
     * checkers' own ({@link StateReportPayload}), with Unicode white space as chord-check splits; raft-check's ASCII
     * rule differs only for exotic separators such as U+00A0, which no case-study node sends.
     */
    public static int[] parse(String hex) {
        // Cheap reject first: most payloads of a large log are not reports, and every report contains "RPT".
        if (hex == null || !containsRptBytes(hex)) return null;
        return StateReportPayload.fields(hex, StateReportPayload.UNICODE_WHITE_SPACE);
    }

    private static boolean containsRptBytes(String hex) {
        for (int i = 0; i + 6 <= hex.length(); i += 2) {
            if (hex.regionMatches(true, i, "525054", 0, 6)) return true;
        }
        return false;
    }

    /** Collects reports from records in op order. */
    public static final class Builder {
        private int[] ops = new int[64];
        private int[][] fields = new int[6][64];
        private int size;

        public Builder add(LogRecord r) {
            if (!(r.event() instanceof Event.Send s)) return this;
            int[] f = parse(s.payload());
            if (f == null) return this;
            if (size == ops.length) {
                ops = Arrays.copyOf(ops, size * 2);
                for (int k = 0; k < 6; k++) fields[k] = Arrays.copyOf(fields[k], size * 2);
            }
            ops[size] = (int) r.op();
            for (int k = 0; k < 6; k++) fields[k][size] = f[k];
            size++;
            return this;
        }

        public ReportLog build() {
            int[][] f = new int[6][];
            for (int k = 0; k < 6; k++) f[k] = Arrays.copyOf(fields[k], size);
            return new ReportLog(Arrays.copyOf(ops, size), f, size);
        }
    }
}
