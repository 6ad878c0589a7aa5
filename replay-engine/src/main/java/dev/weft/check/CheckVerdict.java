package dev.weft.check;

/**
 * The three outcomes of a protocol checker ({@code weft check PROTOCOL}) and their exit codes: a run that says nothing
 * about the invariants is DISCARD (3), whatever else it shows; otherwise any violation makes it VIOLATION (2), else OK (0).
 */
public enum CheckVerdict {
    OK(0), VIOLATION(2), DISCARD(3);

    private final int exitCode;

    CheckVerdict(int exitCode) {
        this.exitCode = exitCode;
    }

    public static CheckVerdict of(boolean discard, boolean violated) {
        if (discard) return DISCARD;
        return violated ? VIOLATION : OK;
    }

    public int exitCode() {
        return exitCode;
    }

    /** The verdict line's text: this verdict's name, a dash, and the checker's reason for this outcome. */
    public String text(String okReason, String violationReason, String discardReason) {
        String reason = switch (this) {
            case OK -> okReason;
            case VIOLATION -> violationReason;
            case DISCARD -> discardReason;
        };
        return name() + " \u2014 " + reason;
    }
}
