package dev.weft.protocol;

import java.util.List;

/**
 * What one protocol case study brings to the engine. Implementations are found through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.weft.protocol.Protocol}) and reached only through {@link Protocols}, which fixes their
 * order; they must be stateless (one instance serves every recording).
 */
public interface Protocol {

    /**
     * The protocol's name in every public contract: {@code weft check NAME}, a campaign's checker word, the kind
     * {@code weft explain --json} prints for its findings. Lowercase, one word.
     */
    String name();

    /**
     * When the protocol is tried in matching a recording's reports, lowest first (ties by name): the first protocol
     * whose shape every report fits speaks for the recording, so a narrower shape must come before a wider one.
     */
    int shapeRank();

    /** How the findings list and the legend name its findings' kind. */
    String findingsLabel();

    /** Its invariants' names, in its checker's order. */
    List<String> invariants();

    /** Whether a state report's six fields ({@link StateReportPayload#ofSend}) have this protocol's shape. */
    boolean fits(int[] report);

    /** A fresh checker over one recording, to be fed its records in file order. */
    ProtocolRun newRun();

    /**
     * Whether its findings judge the end of the run rather than one op (a checker of the final state): such a finding
     * is placed where it broke for good, and it still holds at the end.
     */
    boolean judgesEnd();

    /**
     * One of its violations in plain words (what happened, to whom, at which op), or null when this protocol has no
     * words of its own for it and the generic wording applies.
     */
    String plainWords(String invariant, long op, String message);

    /** The command that prints the same verdict as {@link ProtocolRun#result()} for the recording at log. */
    String checkCommand(String log);

    /**
     * The {@code weft} arguments that check a recording for a campaign whose checker word is {@code checker}, or
     * null when the word is not this protocol's (campaign.md: the checker names a protocol, maybe with arguments).
     */
    List<String> campaignCheck(String checker, String log);

    /** How a campaign names this protocol's checker, as an example in an error (quoted: {@code "NAME M"}). */
    String campaignCheckerExample();

    /** The example with what its arguments may be, for the list of known checkers in an error. */
    String campaignCheckerHelp();
}
