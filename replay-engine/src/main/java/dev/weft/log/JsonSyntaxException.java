package dev.weft.log;

/**
 * A line is not acceptable JSON for its slot (the {@code <why>} of a malformed-record error), or, when
 * {@link #invalidUtf8()} is set, not valid UTF-8 at all (an I/O error). Thrown once per bad line, so no
 * stack trace is captured.
 */
final class JsonSyntaxException extends Exception {

    private final boolean invalidUtf8;

    JsonSyntaxException(String message, boolean invalidUtf8) {
        super(message, null, false, false);
        this.invalidUtf8 = invalidUtf8;
    }

    boolean invalidUtf8() {
        return invalidUtf8;
    }
}
