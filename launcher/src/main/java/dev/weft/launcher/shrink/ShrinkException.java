package dev.weft.launcher.shrink;

/** A shrink that cannot start or go on for a reason the user can fix; its message is one line (exit 1). */
final class ShrinkException extends Exception {
    private static final long serialVersionUID = 1L;

    ShrinkException(String message) {
        super(message);
    }
}
