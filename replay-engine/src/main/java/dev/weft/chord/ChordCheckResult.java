package dev.weft.chord;

import dev.weft.log.LogHeader;
import java.util.List;

/** The outcome of chord-check: the final snapshot, the broken invariants and the DISCARD condition. */
public record ChordCheckResult(ChordSnapshot snapshot, List<ChordViolation> violations, boolean assumptionHeld) {

    public static final int EXIT_OK = 0;
    public static final int EXIT_VIOLATION = 2;
    public static final int EXIT_DISCARD = 3;

    public ChordCheckResult {
        violations = List.copyOf(violations);
    }

    /** 3 when the failure assumption was broken (it takes precedence), else 2 on any violation, else 0. */
    public int exitCode() {
        if (!assumptionHeld) return EXIT_DISCARD;
        return violations.isEmpty() ? EXIT_OK : EXIT_VIOLATION;
    }

    /** The verdict text after {@code verdict   : }. */
    public String verdict() {
        return switch (exitCode()) {
            case EXIT_DISCARD -> "DISCARD \u2014 failure assumption violated by the scenario";
            case EXIT_OK -> "OK \u2014 all correctness invariants hold";
            default -> "VIOLATION \u2014 still violated after the quiescent repair tail (unrepairable per Zave for these invariants)";
        };
    }

    /** The complete stdout of {@code chord-check <LOG>} (§5.5). */
    public String render(String logName, LogHeader header) {
        StringBuilder sb = new StringBuilder();
        sb.append(ChordText.titleLine("CHORD FINAL-STATE CHECK"));
        sb.append(ChordText.recordingLine(logName, header));
        ChordText.appendSnapshot(sb, snapshot);
        sb.append("assumption: papers' failure precondition ")
                .append(assumptionHeld ? "HELD at every failure" : "VIOLATED (seed invalid)").append('\n');
        sb.append('\n').append("verdict   : ").append(verdict()).append('\n');
        if (exitCode() == EXIT_VIOLATION) {
            for (ChordViolation v : violations) {
                sb.append("  \u2717 ").append(v.invariant()).append(" : ").append(v.detail()).append('\n');
            }
        }
        sb.append("=".repeat(55)).append('\n');
        return sb.toString();
    }
}
