package dev.weft.launcher.cli;

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
}
