package dev.weft.replay;

import dev.weft.check.Violation;
import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import java.util.List;
import java.util.Map;

/**
 * Everything a replay found, enough to print the spec's output without touching the file again.
 *
 * @param count            records replayed (including a divergent one)
 * @param digest           FNV-1a stream digest over the replayed canonical records
 * @param divergence       the first divergence, or null when the replay was identical
 * @param violations       violations in the order raised
 * @param totalRecords     records in the whole file (R of the violation report)
 * @param recordedDigest   stream digest of the whole recorded log
 * @param windows          for each violating op, the recorded records op-4..op+4 (file order)
 * @param acceptedWindowedEmpties windowed logs: recorded non-blocking empties taken as replay inputs
 * @param sawEnd           whether the file has an {@code end} record (a crashed recorder leaves none)
 */
public record ReplayReport(LogHeader header, long count, long digest, Divergence divergence, List<Violation> violations,
                           long totalRecords, long recordedDigest, Map<Long, List<LogRecord>> windows,
                           long acceptedWindowedEmpties, boolean sawEnd) {

    public boolean identical() {
        return divergence == null;
    }
}
