package dev.weft.app.source;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.timeline.ReportLog;
import dev.weft.timeline.TimelineModel;

import java.util.ArrayList;
import java.util.List;

/**
 * What the workbench gathers from each record while the replay engine indexes a recording: the timeline, the nodes'
 * state reports, the protocol checkers' input and the violation records written in the log. One collector serves a
 * plain open and a followed (still growing) recording, so both show the same things for the same records.
 * Not thread-safe: fed by the one indexing thread.
 */
final class RecordCollector {

    final TimelineModel.Builder timeline = new TimelineModel.Builder(1 << 16);
    final ReportLog.Builder reports = new ReportLog.Builder();
    final ProtocolChecks.Builder protocol = new ProtocolChecks.Builder();
    final List<ViolationInfo> recorded = new ArrayList<>();

    void accept(LogRecord record) {
        timeline.add(record);
        reports.add(record);
        protocol.accept(record);
        if (record.event() instanceof Event.Violation v) {
            recorded.add(new ViolationInfo(v.invariant(), record.op(), record.vt(), v.message()));
        }
    }

    int size() {
        return timeline.size();
    }

    /** The protocol checks over everything collected; violations are placed at their op's virtual time. */
    static ProtocolChecks protocolChecks(ProtocolChecks.Builder protocol, TimelineModel model) {
        return protocol.build(op -> op >= 0 && op < model.size() ? model.vt((int) op) : 0);
    }
}
