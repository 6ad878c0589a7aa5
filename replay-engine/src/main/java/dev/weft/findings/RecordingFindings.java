package dev.weft.findings;

import dev.weft.check.NoDuplicateDelivery;
import dev.weft.check.PerChannelFifo;
import dev.weft.check.Violation;
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

/**
 * Everything a recording shows, ranked ({@link FindingRanking}): the verdict of the protocol the recording speaks
 * ({@link ProtocolVerdicts}, by the reports' shape), the violation records the recorder wrote (deadlock, stream
 * integrity, …), and the fifo / dup violations replay finds. Two streaming passes: one verified read for the checkers and records, one replay.
 *
 * @param records    records in the recording
 * @param findings   ranked, most severe first
 * @param divergence where replay parted from the recording, or null; the replay's findings stop there
 */
public record RecordingFindings(long records, List<Finding> findings, Divergence divergence) {

    public RecordingFindings {
        findings = List.copyOf(findings);
    }

    /** Reads and replays the recording. Bad input is a {@link WeftLogException} naming the line; replay failure a {@link ReplayException}. */
    public static RecordingFindings read(Path log) throws WeftLogException, ReplayException {
        List<Finding> found = new ArrayList<>();
        ProtocolVerdicts verdicts = new ProtocolVerdicts();
        long[] vts = new long[1024];
        long n = 0;
        try (LogReader reader = LogReader.openInBackground(log)) {
            for (LogRecord r = reader.next(); r != null; r = reader.next()) {
                if (n == vts.length) vts = Arrays.copyOf(vts, vts.length * 2);
                vts[(int) n++] = r.vt();
                verdicts.accept(r);
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
        ReplayReport replay = Replayer.replay(log, new ReplayOptions(null, List.of(PerChannelFifo.NAME, NoDuplicateDelivery.NAME)));
        for (Violation v : replay.violations()) {
            found.add(Finding.of(v.invariant(), v.op(), v.vt(), v.message(), Finding.Origin.REPLAY));
        }
        return new RecordingFindings(n, FindingRanking.rank(found), replay.divergence());
    }

    /** The most severe finding, or null for a clean recording. */
    public Finding top() {
        return findings.isEmpty() ? null : findings.get(0);
    }
}
