package dev.weft.timeline;

import dev.weft.log.LogRecord;
import dev.weft.protocol.Protocol;
import dev.weft.protocol.StateReportPayload;

import java.util.Arrays;

/**
 * The state reports ("RPT" + six integers, invariants-and-checkers.md §4) that case-study nodes sent, in op
 * order, as primitive arrays: the input of the protocol views ({@link ProtocolView}). Only sends count (any
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

    /** Whether every report has the shape of protocol p ({@link Protocol#fits}); false without reports. */
    public boolean allFit(Protocol p) {
        if (size == 0) return false;
        int[] f = new int[6];
        for (int i = 0; i < size; i++) {
            for (int k = 0; k < 6; k++) f[k] = fields[k][i];
            if (!p.fits(f)) return false;
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

    /** The six fields of a report payload (invariants-and-checkers.md §4), or null when it is not one. */
    public static int[] parse(String hex) {
        return StateReportPayload.ofPayload(hex);
    }

    /** Collects reports from records in op order. */
    public static final class Builder {
        private int[] ops = new int[64];
        private int[][] fields = new int[6][64];
        private int size;

        public Builder add(LogRecord r) {
            int[] f = StateReportPayload.ofSend(r);
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
