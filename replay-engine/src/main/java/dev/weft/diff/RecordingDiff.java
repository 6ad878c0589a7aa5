package dev.weft.diff;

import dev.weft.log.CanonicalJson;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.WeftLogException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compares two recordings in one streaming pass over both (memory stays bounded by one vt group and the
 * deliveries one side is ahead by, not by the logs' sizes). Both logs are fully verified as they are read; a log
 * that fails to read is reported as a {@link WeftLogException} naming its line and op.
 */
public final class RecordingDiff {

    private RecordingDiff() {
    }

    /** The canonical form a record is compared in: op, vt and event (weft-log-v2 §7), without the chain. */
    public static String canonical(LogRecord r) {
        return CanonicalJson.record(r.op(), r.vt(), r.event());
    }

    public static DiffResult compare(Path a, Path b, Alignment alignment) throws DiffInputException {
        LogReader ra = open(a);
        try {
            LogReader rb = open(b);
            try {
                return alignment == Alignment.OP ? byOp(ra, rb, a, b) : byVt(ra, rb, a, b);
            } finally {
                closeReadOnly(rb);
            }
        } finally {
            closeReadOnly(ra);
        }
    }

    /** Closing stops the reader's helper threads; a failure to close a file only read cannot change the answer. */
    private static void closeReadOnly(LogReader r) {
        try {
            r.close();
        } catch (IOException ignored) {
            // nothing was written
        }
    }

    private static LogReader open(Path p) throws DiffInputException {
        try {
            return LogReader.open(p);
        } catch (WeftLogException e) {
            throw new DiffInputException(p, e);
        }
    }

    private static LogRecord next(LogReader r, Path p) throws DiffInputException {
        try {
            return r.next();
        } catch (WeftLogException e) {
            throw new DiffInputException(p, e);
        }
    }

    private static DiffResult byOp(LogReader ra, LogReader rb, Path a, Path b) throws DiffInputException {
        SideScanner sa = new SideScanner();
        SideScanner sb = new SideScanner();
        EffectMatcher effects = new EffectMatcher();
        RecordDivergence first = null;
        LogRecord x = next(ra, a);
        LogRecord y = next(rb, b);
        while (x != null || y != null) {
            if (first == null) {
                String cx = x == null ? null : canonical(x);
                String cy = y == null ? null : canonical(y);
                if (cx == null || !cx.equals(cy)) {
                    long vt = x != null ? x.vt() : y.vt();
                    first = new RecordDivergence(x != null ? x.op() : y.op(), y != null ? y.op() : x.op(), vt, cx, cy);
                }
            }
            if (x != null) {
                effects.offerA(sa.offer(x));
                x = next(ra, a);
            }
            if (y != null) {
                effects.offerB(sb.offer(y));
                y = next(rb, b);
            }
        }
        return new DiffResult(Alignment.OP, sa.summary(), sb.summary(), first, effects.finish());
    }

    /** One side's records at one virtual time, in log order. */
    private static final class VtGroup {
        final List<LogRecord> records = new ArrayList<>();
        LogRecord lookahead;

        long vt() {
            return records.get(0).vt();
        }
    }

    private static DiffResult byVt(LogReader ra, LogReader rb, Path a, Path b) throws DiffInputException {
        SideScanner sa = new SideScanner();
        SideScanner sb = new SideScanner();
        EffectMatcher effects = new EffectMatcher();
        RecordDivergence first = null;
        VtGroup ga = new VtGroup();
        VtGroup gb = new VtGroup();
        ga.lookahead = next(ra, a);
        gb.lookahead = next(rb, b);
        while (ga.lookahead != null || gb.lookahead != null) {
            // Take the group at the smaller vt from each side (a side whose next vt is later contributes nothing).
            long vt = Math.min(ga.lookahead == null ? Long.MAX_VALUE : ga.lookahead.vt(),
                    gb.lookahead == null ? Long.MAX_VALUE : gb.lookahead.vt());
            fill(ga, ra, a, vt);
            fill(gb, rb, b, vt);
            if (first == null) {
                first = compareGroups(ga.records, gb.records, vt);
            }
            for (LogRecord r : ga.records) {
                effects.offerA(sa.offer(r));
            }
            for (LogRecord r : gb.records) {
                effects.offerB(sb.offer(r));
            }
        }
        return new DiffResult(Alignment.VT, sa.summary(), sb.summary(), first, effects.finish());
    }

    private static void fill(VtGroup g, LogReader r, Path p, long vt) throws DiffInputException {
        g.records.clear();
        while (g.lookahead != null && g.lookahead.vt() == vt) {
            g.records.add(g.lookahead);
            g.lookahead = next(r, p);
        }
    }

    /** Null when both sides hold the same events at this vt, in any order; else the first one that differs. */
    private static RecordDivergence compareGroups(List<LogRecord> ga, List<LogRecord> gb, long vt) {
        Comparator<LogRecord> byEvent = Comparator.comparing(RecordingDiff::eventText);
        List<LogRecord> sa = new ArrayList<>(ga);
        List<LogRecord> sb = new ArrayList<>(gb);
        sa.sort(byEvent);
        sb.sort(byEvent);
        int n = Math.max(sa.size(), sb.size());
        for (int i = 0; i < n; i++) {
            LogRecord x = i < sa.size() ? sa.get(i) : null;
            LogRecord y = i < sb.size() ? sb.get(i) : null;
            if (x == null || y == null || !eventText(x).equals(eventText(y))) {
                long opA = x != null ? x.op() : ga.isEmpty() ? -1 : ga.get(0).op();
                long opB = y != null ? y.op() : gb.isEmpty() ? -1 : gb.get(0).op();
                return new RecordDivergence(opA, opB, vt, x == null ? null : canonical(x), y == null ? null : canonical(y));
            }
        }
        return null;
    }

    private static String eventText(LogRecord r) {
        StringBuilder sb = new StringBuilder();
        CanonicalJson.appendEvent(sb, r.event());
        return sb.toString();
    }
}
