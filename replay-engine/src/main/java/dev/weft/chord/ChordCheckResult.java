package dev.weft.chord;

import dev.weft.check.CheckVerdict;
import dev.weft.log.LogHeader;
import java.util.List;

/** The outcome of chord-check: the final snapshot, the broken invariants and the DISCARD condition. */
public record ChordCheckResult(ChordSnapshot snapshot, List<ChordViolation> violations, boolean assumptionHeld) {

    public static final int EXIT_OK = CheckVerdict.OK.exitCode();
    public static final int EXIT_VIOLATION = CheckVerdict.VIOLATION.exitCode();
    public static final int EXIT_DISCARD = CheckVerdict.DISCARD.exitCode();

    public ChordCheckResult {
        violations = List.copyOf(violations);
    }

    /** DISCARD when the failure assumption was broken (it takes precedence), else VIOLATION on any violation, else OK. */
    public CheckVerdict outcome() {
        return CheckVerdict.of(!assumptionHeld, !violations.isEmpty());
    }

    public int exitCode() {
        return outcome().exitCode();
    }

    /** The verdict text after {@code verdict   : }. */
    public String verdict() {
        return outcome().text("all correctness invariants hold",
                "still violated after the quiescent repair tail (unrepairable per Zave for these invariants)",
                "failure assumption violated by the scenario");
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
