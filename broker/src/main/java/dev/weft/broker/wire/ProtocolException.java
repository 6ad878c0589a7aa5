package dev.weft.broker.wire;

/** A frame or message that breaks the wire protocol; the message says what is wrong (no stack trace is shown). */
public final class ProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    public ProtocolException(String message) {
        super(message, null, false, false);
    }
}
