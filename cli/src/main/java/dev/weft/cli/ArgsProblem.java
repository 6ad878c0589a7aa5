package dev.weft.cli;

import dev.weft.text.RustText;

/**
 * What was wrong with a command line, for the command to say in its own words: the kind, and the argument it is
 * about (the unknown option, the option missing its value, the extra operand; the converter's sentence for {@code BAD_VALUE}, picocli's message for
 * {@code OTHER}).
 */
public final class ArgsProblem extends Exception {

    private static final long serialVersionUID = 1L;

    /** The failures the commands word differently. */
    public enum Kind { UNKNOWN_OPTION, MISSING_VALUE, UNEXPECTED_ARGUMENT, BAD_VALUE, OTHER }

    private final Kind kind;
    private final String argument;

    public ArgsProblem(Kind kind, String argument) {
        super(kind + ": " + argument, null, false, false); // a user's mistake: no stack trace is ever shown
        this.kind = kind;
        this.argument = argument;
    }

    public Kind kind() {
        return kind;
    }

    public String argument() {
        return argument;
    }

    /**
     * The recording tools' sentence for this problem, with the argument quoted as the reference quotes it:
     * {@code unknown option "-x"}, {@code unexpected argument "y"}, else the converter's or picocli's own message.
     */
    public String sentence() {
        return switch (kind) {
            case UNKNOWN_OPTION -> "unknown option " + RustText.debugQuote(argument);
            case UNEXPECTED_ARGUMENT -> "unexpected argument " + RustText.debugQuote(argument);
            case MISSING_VALUE, BAD_VALUE, OTHER -> argument;
        };
    }

    /**
     * As {@link #sentence}, for the tools that call every stray word an unexpected argument (an unknown option and
     * an option missing its value too): only picocli's own message is kept as it is.
     */
    public String asUnexpectedArgument() {
        return kind == Kind.OTHER ? argument : "unexpected argument " + RustText.debugQuote(argument);
    }

    /**
     * The campaign and shrink tools' sentence: {@code --x needs a value}, {@code unknown argument "y"} for an unknown
     * option or a stray word alike, else the converter's or picocli's own message.
     */
    public String asUnknownArgument() {
        return switch (kind) {
            case MISSING_VALUE -> argument + " needs a value";
            case UNKNOWN_OPTION, UNEXPECTED_ARGUMENT -> "unknown argument \"" + argument + "\"";
            case BAD_VALUE, OTHER -> argument;
        };
    }
}
