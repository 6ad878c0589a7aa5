package dev.weft.findings;

import dev.weft.check.NoDuplicateDelivery;
import dev.weft.check.PerChannelFifo;
import dev.weft.check.Violation;
import dev.weft.history.HistoryFormatException;
import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.WeftLogException;
import dev.weft.protocol.PlacedViolation;
import dev.weft.protocol.ProtocolVerdicts;
import dev.weft.replay.Divergence;
import dev.weft.replay.ReplayException;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongToIntFunction;

/**
 * Everything a recording shows, ranked ({@link FindingRanking}): the verdict of the protocol the recording speaks
 * ({@link ProtocolVerdicts}, by the reports' shape), the violation records the recorder wrote (deadlock, stream
 * integrity, …), the findings of the client history beside it ({@link RecordingHistory}, as the workbench places
 * them), and the fifo / dup violations replay finds. Two streaming passes: one verified read for the checkers and
 * records, one replay.
 *
 * @param records        records in the recording
 * @param findings       ranked, most severe first
 * @param divergence     where replay parted from the recording, or null; the replay's findings stop there
 * @param historyProblem why the history beside the recording could not be read (one line naming file and line), or
 *                       null: there is none, or it was read and its findings are among {@code findings}
 */
public record RecordingFindings(long records, List<Finding> findings, Divergence divergence, String historyProblem) {

    public RecordingFindings {
        findings = List.copyOf(findings);
    }

    /** Reads and replays the recording. Bad input is a {@link WeftLogException} naming the line; replay failure a {@link ReplayException}. */
    public static RecordingFindings read(Path log) throws WeftLogException, ReplayException {
        List<Finding> found = new ArrayList<>();
        ProtocolVerdicts verdicts = new ProtocolVerdicts();
        long[] vts = new long[1024];
        long n = 0;
        TcpSends.Builder sends = new TcpSends.Builder();
        try (LogReader reader = LogReader.openInBackground(log)) {
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                if (n == vts.length) vts = Arrays.copyOf(vts, vts.length * 2);
                vts[(int) n++] = r.vt();
                verdicts.accept(r);
                sends.add(r);
                if (r.event() instanceof Event.Violation v) {
                    found.add(Finding.of(v.invariant(), r.op(), r.vt(), v.message(), Finding.Origin.RECORDED));
                }
            }
        } catch (IOException e) {
            throw WeftLogException.io(e.getMessage(), 0, e);
        }
        for (PlacedViolation p : verdicts.placed()) {
            long vt = p.op() >= 0 && p.op() < n ? vts[(int) p.op()] : 0;
            found.add(Finding.of(p.invariant(), p.op(), vt, p.detail(), Finding.Origin.CHECKER));
        }
        String historyProblem = null;
        try {
            found.addAll(historyFindings(log, sends.build(), vts, (int) n));
        } catch (HistoryFormatException e) {
            historyProblem = e.getMessage();
        }
        ReplayReport replay = Replayer.replay(log, new ReplayOptions(null, List.of(PerChannelFifo.NAME, NoDuplicateDelivery.NAME)));
        for (Violation v : replay.violations()) {
            found.add(Finding.of(v.invariant(), v.op(), v.vt(), v.message(), Finding.Origin.REPLAY));
        }
        return new RecordingFindings(n, FindingRanking.rank(found), replay.divergence(), historyProblem);
    }

    /** The findings of the history beside the recording, placed as the workbench places them; none without one. */
    private static List<Finding> historyFindings(Path log, TcpSends sends, long[] vts, int n) throws HistoryFormatException {
        RecordingHistory history = RecordingHistory.beside(log);
        if (history == null) return List.of();
        LongToIntFunction firstOpNotBeforeVt = t -> firstNotBefore(vts, n, t);
        return history.asFindings(i -> RecordingHistory.placeOperation(history.operations().get(i), sends,
                firstOpNotBeforeVt, n), op -> vts[op], n);
    }

    /** The first of the first {@code n} vts (ascending, unsigned) at or after {@code t}; {@code n} when none is. */
    private static int firstNotBefore(long[] vts, int n, long t) {
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(vts[mid], t) < 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }

    /** The most severe finding, or null for a clean recording. */
    public Finding top() {
        return findings.isEmpty() ? null : findings.get(0);
    }
}
