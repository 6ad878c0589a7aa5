package dev.weft.launcher;

import dev.weft.log.LogHeader;
import java.io.PrintStream;
import java.util.Arrays;

/**
 * The {@code weft} dispatcher. The first word picks the subcommand ({@link WeftCommand}); the rest goes to it
 * untouched, because the subcommands' argument errors and texts are public contracts of the spec
 * (core-and-replay.md §5, fuzz.md §1) that a generic parser would reword. Help for commands whose parser has none
 * is answered here, from the same list that generates the top-level help and the completion scripts.
 *
 * <p>Nothing here loads picocli or a command class that is not run: {@code weft --help} is start-up bound.
 */
public final class WeftCli {

    /** The first line of {@code weft --version}, as the reference prints it (core-and-replay.md §5). */
    public static final String VERSION = "weft 0.0.2";

    private static final int SUMMARY_COLUMN = 16;

    private WeftCli() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            out.print(usage());
            return 0;
        }
        if (args[0].equals("help")) {
            return help(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        if (args[0].equals("-V") || args[0].equals("--version")) {
            out.print(versionText());
            return 0;
        }
        WeftCommand command = WeftCommand.named(args[0]);
        if (command == null) {
            return unknownCommand(args[0], err);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (command.dispatcherAnswersHelp(rest)) {
            out.print(command.usage());
            return 0;
        }
        return command.run(rest, out, err);
    }

    private static int unknownCommand(String word, PrintStream err) {
        err.print("weft: unknown command '" + word + "'\n" + usage());
        return 1;
    }

    /** {@code weft help [COMMAND]}: the top-level help, or one command's. */
    private static int help(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0) {
            out.print(usage());
            return 0;
        }
        WeftCommand command = WeftCommand.named(args[0]);
        if (command == null) {
            return unknownCommand(args[0], err);
        }
        out.print(command.usage());
        return 0;
    }

    /**
     * {@code weft --version}: the reference's line first (scripts compare it), then ours: the Weft Workbench
     * release and the weft-log format version it reads and writes.
     */
    public static String versionText() {
        String ours = WeftCli.class.getPackage().getImplementationVersion();
        return VERSION + "\n"
                + "Weft Workbench " + (ours == null ? "(development build)" : ours)
                + ", weft-log format v" + LogHeader.VERSION + " (reads and writes the recordings of Weft 0.0.2)\n";
    }

    /** The top-level help text, listing every command of {@link WeftCommand} in declaration order. */
    public static String usage() {
        StringBuilder sb = new StringBuilder(2048);
        sb.append("Usage: weft <COMMAND> [ARGS...]\n")
                .append("Deterministic simulation testing for unmodified Linux binaries: one 64-bit seed decides every\n")
                .append("clock read, random byte, interleaving and network fate; runs are recorded as weft-logs.\n")
                .append("\nCommands:\n");
        for (WeftCommand c : WeftCommand.values()) {
            sb.append("  ").append(c.word());
            for (int pad = c.word().length(); pad < SUMMARY_COLUMN; pad++) {
                sb.append(' ');
            }
            sb.append(c.summary()).append('\n');
        }
        sb.append("\nRun 'weft <COMMAND> --help' for a command's options. 'weft --version' prints the version.\n");
        return sb.toString();
    }
}
