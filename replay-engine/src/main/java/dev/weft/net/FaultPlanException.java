package dev.weft.net;

/** A fault plan document that cannot be used; the message names the member and what is wrong, in one line. */
public final class FaultPlanException extends Exception {
    public FaultPlanException(String message) {
        super(message);
    }
}
