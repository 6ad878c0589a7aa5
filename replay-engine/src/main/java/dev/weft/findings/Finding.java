package dev.weft.findings;

/**
 * One thing a recording shows that is wrong: an invariant broken at an op.
 *
 * @param kind      what sort of finding (decides its rank)
 * @param invariant the checker's or record's invariant name ("AtLeastOneRing", "per-channel-fifo", "deadlock")
 * @param op        the op it is placed at; for a check of the final state, the op after which it held without a
 *                  break to the end
 * @param vt        that op's virtual time
 * @param message   the checker's or record's own text
 * @param origin    who found it
 */
public record Finding(FindingKind kind, String invariant, long op, long vt, String message, Origin origin) {

    /** Who found a finding: a protocol checker, the replay's invariants, or the recorder (a violation record). */
    public enum Origin {
        CHECKER("checker"), REPLAY("replay"), RECORDED("recorded");

        private final String word;

        Origin(String word) { this.word = word; }

        public String word() { return word; }
    }

    /** A finding whose kind follows from its invariant's name. */
    public static Finding of(String invariant, long op, long vt, String message, Origin origin) {
        return new Finding(FindingKind.of(invariant), invariant, op, vt, message, origin);
    }

    /**
     * Whether the finding judges the end of the run rather than one op: a protocol invariant checked on the final
     * state has its op where it broke for good, and it is still broken at the end.
     */
    public boolean holdsAtEnd() {
        return kind.holdsAtEnd();
    }
}
