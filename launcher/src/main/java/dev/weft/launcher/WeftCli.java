package dev.weft.launcher;

import dev.weft.launcher.replay.ReplayCommand;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The {@code weft} dispatcher. The first word picks the subcommand; the rest goes to it untouched, because the
 * subcommands' argument errors and texts are public contracts of the spec (core-and-replay.md §5, fuzz.md §1) that
 * a generic parser would reword. picocli renders the top-level help from the same table.
 */
public final class WeftCli {

    public static final String VERSION = "weft 0.0.2";

    private record Entry(String summary, Subcommand command) {
    }

    private static final Map<String, Entry> COMMANDS = new LinkedHashMap<>();

    static {
        register("replay", "re-execute a recording and verify it replays identically", ReplayCommand::run);
    }

    private WeftCli() {
    }

    /** Adds a subcommand (insertion order is the help order). */
    public static synchronized void register(String name, String summary, Subcommand command) {
        COMMANDS.put(name, new Entry(summary, command));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help") || args[0].equals("help")) {
            out.print(usage());
            return 0;
        }
        if (args[0].equals("-V") || args[0].equals("--version")) {
            out.print(VERSION + "\n");
            return 0;
        }
        Entry entry = COMMANDS.get(args[0]);
        if (entry == null) {
            err.print("weft: unknown command '" + args[0] + "'\n" + usage());
            return 1;
        }
        return entry.command().run(Arrays.copyOfRange(args, 1, args.length), out, err);
    }

    /** The top-level help text, listing every registered subcommand. */
    public static String usage() {
        CommandSpec spec = CommandSpec.create().name("weft").version(VERSION);
        spec.usageMessage()
                .description("Deterministic simulation testing for unmodified Linux binaries: one 64-bit seed decides",
                        "every clock read, random byte, interleaving and network fate; runs are recorded as weft-logs.")
                .customSynopsis("Usage: weft <COMMAND> [ARGS...]")
                .footer("", "Run 'weft <COMMAND> --help' for a command's options. 'weft --version' prints the version.");
        for (Map.Entry<String, Entry> e : COMMANDS.entrySet()) {
            CommandSpec sub = CommandSpec.create().name(e.getKey());
            sub.usageMessage().description(e.getValue().summary());
            spec.addSubcommand(e.getKey(), sub);
        }
        return new CommandLine(spec).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }
}
