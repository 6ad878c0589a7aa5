package dev.weft.fuzz;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** The report text of fuzz.md §8 (stdout and report.txt); every line ends with a newline. */
public final class FuzzReport {

    private static final String TOP = "==================== WEFT FUZZ REPORT ====================";
    private static final String BOTTOM = "==========================================================";

    private FuzzReport() {
    }

    public static String render(FuzzOutcome o) {
        FuzzConfig c = o.config();
        SweepResult s = o.sweep();
        String tested = Long.toUnsignedString(s.tested());
        String checks = String.join(",", c.invariants());
        StringBuilder sb = new StringBuilder();
        sb.append(TOP).append('\n');
        sb.append("swept     : ").append(tested).append(" seed(s) in ").append(duration(o.tookNanos()))
                .append(" (").append(Long.toUnsignedString(s.failed())).append(" failing)")
                .append(s.budgetHit() ? "  [time budget hit]" : "").append('\n');
        sb.append("net       : ").append(c.net()).append('\n');
        sb.append("workload  : ").append(Long.toUnsignedString(c.workload().nodes())).append(" node(s), ")
                .append(Long.toUnsignedString(c.workload().sends())).append(" send(s), workload_seed ")
                .append(Long.toUnsignedString(c.workload().workloadSeed())).append('\n');
        sb.append("invariants: ").append(String.join(", ", c.invariants())).append('\n');
        sb.append('\n');
        if (o.found().isEmpty()) {
            sb.append("No invariant violations found.\n");
        } else {
            sb.append(o.found().size()).append(" distinct violation(s):\n");
            for (FuzzOutcome.Found f : o.found()) {
                SweepResult.Finding finding = f.finding();
                ShrinkResult sh = f.shrink();
                sb.append('\n');
                sb.append("  \u2717 ").append(finding.key().display()).append('\n');
                sb.append("    what   : ").append(finding.what()).append('\n');
                sb.append("    seeds  : ").append(finding.seeds().size()).append(" of ").append(tested)
                        .append(" tested (first: ").append(Long.toUnsignedString(finding.smallestSeed())).append(")\n");
                sb.append("    shrunk : ").append(sh.before()).append(" \u2192 ").append(sh.after()).append(" ops in ")
                        .append(sh.executions()).append(" execution(s)").append(sh.budgetExhausted() ? " [budget hit]" : "")
                        .append('\n');
                if (f.reproPath() != null) {
                    sb.append("    repro  : ").append(f.reproPath()).append('\n');
                    sb.append("    verify : weft replay ").append(f.reproPath()).append(" --check ").append(checks).append('\n');
                }
            }
        }
        sb.append(BOTTOM).append('\n');
        return sb.toString();
    }

    /** Below 1 s whole milliseconds ({@code 58ms}), else seconds with one decimal, ties to even ({@code 1.5s}). */
    public static String duration(long nanos) {
        if (nanos < 1_000_000_000L) return (nanos / 1_000_000L) + "ms";
        return new BigDecimal(nanos).movePointLeft(9).setScale(1, RoundingMode.HALF_EVEN).toPlainString() + "s";
    }
}
