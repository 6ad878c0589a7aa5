package dev.weft.json;

/**
 * A line is not acceptable JSON for its slot in a schema (the {@code <why>} of a malformed-record error), or, when
 * {@link #invalidUtf8()} is set, not valid UTF-8 at all (an I/O error). Thrown once per bad line, so no
 * stack trace is captured.
 */
public final class JsonLineException extends Exception {

    private final boolean invalidUtf8;

    public JsonLineException(String message, boolean invalidUtf8) {
        super(message, null, false, false);
        this.invalidUtf8 = invalidUtf8;
    }

    public boolean invalidUtf8() {
        return invalidUtf8;
    }
}
