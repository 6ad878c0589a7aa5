package dev.weft.replay;

/** A recording that verified but cannot be replayed (bad payload hex, unusable net spec); message is the spec text. */
public final class ReplayException extends Exception {
    private static final long serialVersionUID = 1L;
    private final long op;

    public ReplayException(String message, long op) {
        super(message);
        this.op = op;
    }

    /** The op at which replay failed, or -1 when the problem is in the header. */
    public long op() {
        return op;
    }
}
