package dev.weft.replay;

/**
 * How far a recording could be trusted when it was indexed. {@code firstBadOp} is the op of the first record that
 * failed (or the count of good records when the failure is a line that is not a record), -1 when all is well.
 * {@code line} is the physical file line of a read error (0 when not applicable); {@code message} is the spec's
 * error text (without any tool prefix).
 */
public record IndexStatus(Kind kind, long firstBadOp, long line, String message, Divergence divergence) {

    public enum Kind {
        /** Verified and replayed identically. */
        OK,
        /** The file stops verifying at {@code line} (chain broken, malformed line, I/O error...). */
        READ_ERROR,
        /** Verified, but replay could not continue (bad payload hex, unusable net spec). */
        REPLAY_ERROR,
        /** Verified, but the replayed event or vt differs from the recording at {@code firstBadOp}. */
        DIVERGED
    }

    public static final IndexStatus OK_STATUS = new IndexStatus(Kind.OK, -1, 0, "", null);

    public boolean ok() {
        return kind == Kind.OK;
    }
}
