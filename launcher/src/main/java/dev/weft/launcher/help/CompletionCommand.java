package dev.weft.launcher.help;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import java.io.PrintStream;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.ParseResult;

/** {@code weft completion bash|zsh}: prints the shell completion script generated from the command list. */
public final class CompletionCommand {

    public static final String USAGE = "Usage: weft completion <bash|zsh>\n"
            + "\n"
            + "Prints a shell completion script for weft (commands, their options, --check values, file names).\n"
            + "The installed packages already ship both. For a source checkout:\n"
            + "  bash:  source <(./weft completion bash)\n"
            + "  zsh:   ./weft completion zsh > ~/.zfunc/_weft   (with ~/.zfunc on $fpath, then compinit)\n"
            + "\n"
            + "Exit status: 0, or 1 for an unknown shell.\n";

    /** The shells a script is made for. */
    static final List<String> SHELLS = List.of("bash", "zsh");

    private CompletionCommand() {
    }

    /** The picocli model of {@code weft completion}: the shell, one of {@link #SHELLS}. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("completion")
                .addOption(CommandArgs.helpOption())
                .addPositional(PositionalParamSpec.builder().index("0").arity("1").paramLabel("<bash|zsh>")
                        .type(String.class).completionCandidates(SHELLS).build());
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), args);
        } catch (ArgsProblem p) {
            return unknownShell(err);
        }
        if (parsed.isUsageHelpRequested()) {
            out.print(USAGE);
            return 0;
        }
        String shell = parsed.matchedPositionalValue(0, "");
        if (shell.equals("bash")) {
            out.print(CompletionScript.bash());
            return 0;
        }
        if (shell.equals("zsh")) {
            out.print(CompletionScript.zsh());
            return 0;
        }
        return unknownShell(err);
    }

    private static int unknownShell(PrintStream err) {
        err.print("weft completion: expected 'bash' or 'zsh'\n\n" + USAGE);
        return 1;
    }
}
