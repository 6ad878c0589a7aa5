/**
 * Findings: everything a recording shows that is wrong, in one ranking. {@link dev.weft.findings.FindingKind} sorts
 * verdicts about the program (its protocol's, stream integrity, deadlock, history) before network invariants (fifo,
 * dup); {@link dev.weft.findings.FindingRanking} orders and counts; {@link dev.weft.findings.FindingWords} says each
 * in plain words; {@link dev.weft.findings.RecordingFindings} gathers them from a weft-log. Used by {@code weft
 * explain}, the workbench and its campaign results, so all three name the same finding first.
 */
package dev.weft.findings;
