package dev.weft.replay;

import dev.weft.check.EventText;
import dev.weft.check.Violation;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogHeader;
import dev.weft.log.LogRecord;
import java.util.List;

/** The {@code weft replay --check} violation report block, byte for byte (invariants-and-checkers.md §3). */
public final class ViolationReport {

    private static final String OPEN = "================ WEFT INVARIANT VIOLATION ================\n";
    private static final String CLOSE = "=".repeat(59) + "\n";

    private ViolationReport() {
    }

    /** Appends one block; {@code logPath} is the path exactly as the user gave it. */
    public static void append(StringBuilder out, Violation v, ReplayReport report, String logPath) {
        LogHeader h = report.header();
        String op = Long.toUnsignedString(v.op());
        out.append(OPEN);
        out.append("invariant : ").append(v.invariant()).append('\n');
        out.append("where     : op ").append(op).append(" of ").append(Long.toUnsignedString(report.totalRecords()))
                .append(", virtual time ").append(Long.toUnsignedString(v.vt())).append(" ns\n");
        out.append("what      : ").append(v.message()).append('\n');
        out.append("event     : ").append(EventText.line(v.event())).append('\n');
        out.append('\n');
        out.append("run inputs (sufficient for exact reproduction):\n");
        out.append("  seed        : ").append(Long.toUnsignedString(h.seed())).append('\n');
        out.append("  net spec    : ").append(h.net().isEmpty() ? "(reliable)" : h.net()).append('\n');
        out.append("  log file    : ").append(logPath).append('\n');
        out.append("  log format  : ").append(h.format()).append(" v").append(Long.toUnsignedString(h.version())).append('\n');
        out.append("  stream hash : ").append(Fnv1a.hex16(report.recordedDigest())).append('\n');
        if (h.meta() != null && h.meta().label() != null) {
            out.append("  label       : ").append(h.meta().label()).append('\n');
        }
        out.append('\n');
        out.append("reproduce:\n");
        out.append("  weft replay ").append(logPath).append("            # re-executes to the identical stream hash\n");
        out.append("  weft replay ").append(logPath).append(" --until ").append(op)
                .append("  # stops right after the violating op\n");
        out.append('\n');
        List<LogRecord> window = report.windows().getOrDefault(v.op(), List.of());
        long lo = window.isEmpty() ? v.op() : window.get(0).op();
        long hi = window.isEmpty() ? v.op() : window.get(window.size() - 1).op();
        out.append("event window (op ").append(Long.toUnsignedString(lo)).append("..=").append(Long.toUnsignedString(hi))
                .append("):\n");
        for (LogRecord r : window) {
            out.append(r.op() == v.op() ? ">>" : "  ");
            out.append(" op ").append(padLeft(Long.toUnsignedString(r.op()), 4));
            out.append("  vt ").append(padLeft(Long.toUnsignedString(r.vt()), 12)).append("ns  ");
            out.append(EventText.line(r.event())).append('\n');
        }
        out.append(CLOSE);
    }

    private static String padLeft(String s, int width) {
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }
}
