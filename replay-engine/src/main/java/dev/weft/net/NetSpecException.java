package dev.weft.net;

/** A network spec that does not parse; {@link #getMessage()} is the reference's exact text (§1.6). */
public final class NetSpecException extends Exception {

    private static final long serialVersionUID = 1L;

    public enum Kind { NOT_KEY_VALUE, UNKNOWN_KEY, INVALID_LATENCY, INVALID_LOSS, INVALID_BANDWIDTH, INVALID_PARTITION,
        /** Ours: a {@code tcp_stall} value that is not a u64 of nanoseconds. */
        INVALID_TCP_STALL }

    private final Kind kind;

    NetSpecException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
