package dev.weft.launcher.help;

import java.io.PrintStream;

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

    private CompletionCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && args[0].equals("bash")) {
            out.print(CompletionScript.bash());
            return 0;
        }
        if (args.length == 1 && args[0].equals("zsh")) {
            out.print(CompletionScript.zsh());
            return 0;
        }
        err.print("weft completion: expected 'bash' or 'zsh'\n\n" + USAGE);
        return 1;
    }
}
