package dev.weft.launcher.cli;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import java.io.PrintStream;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * How the recording tools ({@code weft diff}, {@code explain}, {@code plan}, {@code state}, {@code scenario}) answer
 * their command line, one place instead of a copy in each: {@code -h/--help} prints the usage (exit 0); a mistake
 * prints {@code weft NAME: why}, a blank line and the usage on stderr (exit 1). These lines and exit codes are public
 * (docs/cli.md).
 */
public final class ToolUsage {

    public static final int HELP_EXIT = 0;
    public static final int MISTAKE_EXIT = 1;

    /** What parsing gave: the arguments to act on, or (when {@link #answered}) the exit code of what was printed. */
    public record Parsed(ParseResult args, int exit) {
        public boolean answered() {
            return args == null;
        }
    }

    private final String name;
    private final String usage;

    /** name is the subcommand as typed after {@code weft}; usage its whole help text. */
    public ToolUsage(String name, String usage) {
        this.name = name;
        this.usage = usage;
    }

    /** Parses args against spec; a problem is put in words by why and printed as a {@link #mistake}. */
    public Parsed parse(CommandSpec spec, String[] args, PrintStream out, PrintStream err,
            Function<ArgsProblem, String> why) {
        return parse(spec, args, out, p -> mistake(err, why.apply(p)));
    }

    /** Parses args against spec; a problem is answered by onProblem, which prints and returns the exit code. */
    public Parsed parse(CommandSpec spec, String[] args, PrintStream out, ToIntFunction<ArgsProblem> onProblem) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec, args);
        } catch (ArgsProblem p) {
            return new Parsed(null, onProblem.applyAsInt(p));
        }
        if (parsed.isUsageHelpRequested()) {
            out.print(usage);
            return new Parsed(null, HELP_EXIT);
        }
        return new Parsed(parsed, HELP_EXIT);
    }

    /** Prints {@code weft NAME: why}, a blank line and the usage to err; returns the exit code of a mistake. */
    public int mistake(PrintStream err, String why) {
        err.print("weft " + name + ": " + why + "\n\n" + usage);
        return MISTAKE_EXIT;
    }
}
