package dev.weft.protocol;

import java.util.List;

/**
 * A protocol checker's verdict on one recording, as its {@code weft check} command prints it, with what the views
 * need besides.
 *
 * @param protocol   who judged
 * @param verdict    the verdict line's text (after "verdict   : ")
 * @param exitCode   the check command's exit code ({@link dev.weft.check.CheckVerdict}): 0 OK, 2 violation, 3 discard
 * @param violations the violations the verdict rests on, placed on ops, sorted by op
 * @param episodes   every stretch over which one of its invariants was broken, by start op; empty when the checker
 *                   only judges single ops
 * @param state      the protocol's own record of its state over time, for its workbench view (its type is the
 *                   protocol's own)
 */
public record ProtocolResult(Protocol protocol, String verdict, int exitCode, List<PlacedViolation> violations,
                             List<Episode> episodes, Object state) {

    /** Keeps its own copies of the lists. */
    public ProtocolResult {
        violations = List.copyOf(violations);
        episodes = List.copyOf(episodes);
    }
}
