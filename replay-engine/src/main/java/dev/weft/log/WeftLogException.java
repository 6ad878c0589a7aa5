package dev.weft.log;

/**
 * Why a weft-log could not be read or verified (weft-log-v2.md §9). {@link #getMessage()} is exactly the
 * spec's text without the {@code <tool>: <path>: } prefix, e.g. {@code line 7: malformed record: ...}.
 */
public final class WeftLogException extends Exception {

    public enum Kind { IO, MALFORMED, WRONG_FORMAT, UNSUPPORTED_VERSION, CHAIN_BROKEN, BAD_OP_ORDER }

    private final Kind kind;
    private final long line;
    private final long op;

    private WeftLogException(Kind kind, String message, long line, long op, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.line = line;
        this.op = op;
    }

    public Kind kind() {
        return kind;
    }

    /** Physical 1-based line number the error refers to, 0 if none. */
    public long line() {
        return line;
    }

    /** The op (record position) the error refers to, -1 if none. For BAD_OP_ORDER: the expected op. */
    public long op() {
        return op;
    }

    /** {@code I/O error: <what>}; line is 0 when the failure is not tied to a line. */
    public static WeftLogException io(String what, long line, Throwable cause) {
        return new WeftLogException(Kind.IO, "I/O error: " + what, line, -1, cause);
    }

    public static WeftLogException malformed(long line, String why) {
        return new WeftLogException(Kind.MALFORMED, "line " + line + ": malformed record: " + why, line, -1, null);
    }

    public static WeftLogException wrongFormat(String format) {
        return new WeftLogException(Kind.WRONG_FORMAT, "not a weft-log file (format=" + dev.weft.text.RustText.debugQuote(format) + ")", 1, -1, null);
    }

    public static WeftLogException unsupportedVersion(long version) {
        return new WeftLogException(Kind.UNSUPPORTED_VERSION,
                "unsupported weft-log version " + version + " (this reader supports 2)", 1, -1, null);
    }

    public static WeftLogException chainBroken(long op, long line) {
        return new WeftLogException(Kind.CHAIN_BROKEN,
                "integrity chain broken at op " + Long.toUnsignedString(op) + ": log truncated or edited", line, op, null);
    }

    public static WeftLogException badOpOrder(long expected, long got, long line) {
        return new WeftLogException(Kind.BAD_OP_ORDER,
                "op sequence broken: expected " + Long.toUnsignedString(expected) + ", got " + Long.toUnsignedString(got),
                line, expected, null);
    }
}
