package dev.weft.json;

/**
 * A document that is not JSON, located at the byte where reading stopped: {@link #getMessage()} is
 * {@code <what> at line <L> column <C>} (1-based, columns in bytes), the form every schema layer prints.
 */
public final class JsonSyntaxError extends Exception {
    private static final long serialVersionUID = 1L;

    private final String what;
    private final int line;
    private final int column;

    JsonSyntaxError(String what, int line, int column) {
        super(what + " at line " + line + " column " + column);
        this.what = what;
        this.line = line;
        this.column = column;
    }

    /** The problem without its location. */
    public String what() { return what; }

    /** 1-based line of the byte where reading stopped. */
    public int line() { return line; }

    /** 1-based column (in bytes) of that byte. */
    public int column() { return column; }
}
