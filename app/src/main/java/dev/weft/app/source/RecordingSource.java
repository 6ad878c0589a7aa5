package dev.weft.app.source;

import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import dev.weft.timeline.TimelineModel;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Everything the workbench asks of an opened recording: the one query API every view model uses, so
 * nothing in the UI parses JSON or replays by itself. Implementations are immutable once opened and safe
 * to call from any thread; {@link #check} may take a while and is called off the FX thread.
 */
public interface RecordingSource extends AutoCloseable {

    Path path();

    LogHeader header();

    /** Records available: all of them for a good log, those before the first problem for a bad one. */
    int size();

    /** The record at op (0 <= op < size()). */
    LogRecord record(int op);

    /** The broker state after op (0 <= op < size()). */
    StateSnapshot stateAt(int op);

    TimelineModel timeline();

    /** The RPT state reports the nodes sent (the protocol case studies), for the protocol views. */
    default dev.weft.timeline.ReportLog reports() {
        return dev.weft.timeline.ReportLog.empty();
    }

    Verification verification();

    /** The checks of the protocol this recording speaks (none when it carries no state reports). */
    default ProtocolChecks protocol() {
        return ProtocolChecks.none();
    }

    /** The violation records written into the log while recording (op, invariant, message), by op. */
    default List<ViolationInfo> recordedViolations() {
        return List.of();
    }

    /** The canonical JSON of the record (weft-log-v2.md §7), without its chain. */
    default String canonicalJson(int op) {
        LogRecord r = record(op);
        return dev.weft.log.CanonicalJson.record(r.op(), r.vt(), r.event());
    }

    /** The one-line description of the record's event (invariants-and-checkers.md §3 event lines). */
    default String eventLine(int op) {
        return dev.weft.check.EventText.line(record(op).event());
    }

    /** The event line of op when its record is in hand already (sources whose line is the record's text skip a read). */
    default String eventLine(int op, LogRecord record) {
        return eventLine(op);
    }

    /** Event lines of ops {@code from} (inclusive) to {@code to} (exclusive); sources may read them in one go. */
    default String[] eventLines(int from, int to) {
        String[] lines = new String[to - from];
        for (int op = from; op < to; op++) {
            lines[op - from] = eventLine(op);
        }
        return lines;
    }

    /** Records of ops {@code from} (inclusive) to {@code to} (exclusive); sources may read them in one go. */
    default List<LogRecord> records(int from, int to) {
        List<LogRecord> out = new java.util.ArrayList<>(Math.max(0, to - from));
        for (int op = from; op < to; op++) out.add(record(op));
        return out;
    }

    /** Runs the named invariants (e.g. "per-channel-fifo") over the records; sorted by op. */
    List<ViolationInfo> check(Set<String> invariants, Progress progress) throws InterruptedException;

    /** Invariant names this source can check, in display order. */
    List<String> availableInvariants();

    @Override
    default void close() { }
}
