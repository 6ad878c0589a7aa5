package dev.weft.timeline;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
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
     * Parses a report payload: hex, valid UTF-8, white-space separated tokens, "RPT", then six i32 (optional
     * sign); extra tokens ignored. Null when it is not a report.
     */
    public static int[] parse(String hex) {
        if (hex == null || hex.length() < 6 || hex.length() % 2 != 0) return null;
        // Cheap reject first: every report starts with "RPT" (52 50 54).
        if (!hex.regionMatches(true, 0, "525054", 0, 6)) return null;
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            int hi = Character.digit(hex.charAt(2 * i), 16), lo = Character.digit(hex.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) return null;
            b[i] = (byte) (hi << 4 | lo);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        String[] tok = text.trim().split("\\s+");
        if (tok.length < 7 || !tok[0].equals("RPT")) return null;
        int[] f = new int[6];
        for (int i = 0; i < 6; i++) {
            String t = tok[i + 1];
            if (!t.matches("[+-]?[0-9]{1,10}")) return null;
            long v = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
            if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) return null;
            f[i] = (int) v;
        }
        return f;
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
