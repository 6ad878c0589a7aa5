package dev.weft.cli;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;

/**
 * Parses one subcommand's arguments against its picocli model. Why not picocli's own error texts: a command's usage
 * errors and exit codes are public contracts (docs/cli.md, the interoperability spec), so a parse failure comes back
 * as an {@link ArgsProblem} that the command words itself, the same as before it used picocli.
 *
 * <p>The settings keep the arguments as the hand-written parsers took them: {@code @file} is a file name, not a file
 * of arguments; an option given twice keeps its last value; {@code -h}/{@code --help} is help only where the model
 * declares it.
 */
public final class CommandArgs {

    private CommandArgs() {
    }

    /** The parsed arguments, or an {@link ArgsProblem} naming what was wrong. */
    public static ParseResult parse(CommandSpec spec, String... args) throws ArgsProblem {
        CommandLine line = new CommandLine(spec)
                .setExpandAtFiles(false)
                .setOverwrittenOptionsAllowed(true);
        try {
            return line.parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            List<String> unmatched = e.getUnmatched();
            String first = unmatched.isEmpty() ? "" : unmatched.get(0);
            throw new ArgsProblem(e.isUnknownOption() ? ArgsProblem.Kind.UNKNOWN_OPTION
                    : ArgsProblem.Kind.UNEXPECTED_ARGUMENT, first);
        } catch (CommandLine.MissingParameterException e) {
            String option = e.getMissing().isEmpty() || !(e.getMissing().get(0) instanceof OptionSpec o)
                    ? "" : o.longestName();
            throw new ArgsProblem(ArgsProblem.Kind.MISSING_VALUE, option);
        } catch (CommandLine.ParameterException e) {
            if (e.getCause() instanceof BadValue bad) {
                throw new ArgsProblem(ArgsProblem.Kind.BAD_VALUE, bad.getMessage());
            }
            throw new ArgsProblem(ArgsProblem.Kind.OTHER, e.getMessage());
        }
    }

    /** A single-valued option taking a string, written {@code NAMES <LABEL>} in the model's help. */
    public static OptionSpec valueOption(String label, String... names) {
        return OptionSpec.builder(names).paramLabel(label).arity("1").type(String.class).build();
    }

    /**
     * A single-valued option whose value is one of {@code choices}, which shell completion offers. The command checks
     * the value itself, so that a wrong one gets the command's own words.
     */
    public static OptionSpec choiceOption(List<String> choices, String... names) {
        return OptionSpec.builder(names).paramLabel(String.join("|", choices)).arity("1").type(String.class)
                .completionCandidates(choices).build();
    }

    /**
     * A single-valued option whose value {@code converter} reads when the option is met, so that parsing stops at
     * the first bad value in command-line order; the converter refuses a value with a {@link BadValue}.
     */
    public static <T> OptionSpec convertedOption(String label, Class<T> type, CommandLine.ITypeConverter<T> converter,
            String... names) {
        return OptionSpec.builder(names).paramLabel(label).arity("1").type(type).converters(converter).build();
    }

    /**
     * Thrown by a converter ({@link #convertedOption}) for a value it refuses; its message is the command's whole
     * sentence about it (e.g. {@code --jobs "-1": not a count}), reported as {@link ArgsProblem.Kind#BAD_VALUE}.
     */
    public static final class BadValue extends IllegalArgumentException {

        private static final long serialVersionUID = 1L;

        /** (An IllegalArgumentException, so that a hand parser calling the same check still catches it.) */
        public BadValue(String sentence) {
            super(sentence);
        }
    }

    /** v as a count of at least 1 (--jobs, --keep), or a {@link BadValue} naming option. */
    public static int positiveCount(String v, String option) {
        try {
            int n = Integer.parseInt(v);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new BadValue(option + " wants a positive number, got \"" + v + "\"");
    }

    /** An option given again and again, each time with one value: {@code --at 3 --at 7}, in the order given. */
    public static OptionSpec repeatedOption(String label, String... names) {
        return OptionSpec.builder(names).paramLabel(label).arity("1").type(List.class).auxiliaryTypes(String.class)
                .build();
    }

    /** An option without a value. */
    public static OptionSpec flag(String... names) {
        return OptionSpec.builder(names).arity("0").type(boolean.class).build();
    }

    /** {@code -h, --help}: answered by the command with its help text. */
    public static OptionSpec helpOption() {
        return OptionSpec.builder("-h", "--help").usageHelp(true).arity("0").type(boolean.class).build();
    }

    /** The operands ({@link #operands}) given, in order; none if there were none. */
    public static List<String> operands(ParseResult parsed) {
        return parsed.matchedPositionalValue(0, List.<String>of());
    }

    /** Positional arguments at any index, as strings; the command checks how many it got. */
    public static CommandLine.Model.PositionalParamSpec operands(String label) {
        return CommandLine.Model.PositionalParamSpec.builder().index("0..*").arity("0..*").paramLabel(label)
                .type(List.class).auxiliaryTypes(String.class).build();
    }
}
