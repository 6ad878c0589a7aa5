package dev.weft.launcher;

import dev.weft.launcher.check.ChordCheckCommand;
import dev.weft.launcher.check.ChordTraceCommand;
import dev.weft.launcher.check.RaftCheckCommand;
import dev.weft.launcher.fuzz.FuzzCommand;
import dev.weft.launcher.replay.ReplayCommand;
import dev.weft.launcher.run.RunCommand;
import dev.weft.launcher.scenario.ScenarioCommand;
import dev.weft.launcher.state.StateCommand;
import dev.weft.vm.VmCommand;
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
        register("state", "the simulated network's state after op N (pending datagrams, bindings, channels)",
                StateCommand::run);
        register("run", "run a Linux program under the deterministic shim (Linux only)", (a, o, e) -> {
            o.flush();
            return RunCommand.run(a);
        });
        register("fuzz", "sweep fault seeds over a generated workload, shrink failures to reproducers", FuzzCommand::run);
        register("check", "protocol checkers over a recording: check chord <LOG> <M> | check raft <LOG>",
                WeftCli::check);
        register("trace", "protocol state traces: trace chord <LOG> <M>", WeftCli::trace);
        register("convert", "a recording as Perfetto Trace Event JSON: convert <LOG> --to perfetto <OUT.json>",
                dev.weft.launcher.convert.ConvertCommand::run);
        register("scenario", "validate a scenario file and print its time-ordered events", ScenarioCommand::run);
        register("vm", "record/replay a small Linux guest under QEMU: vm record --seed N | vm replay RUN_DIR",
                VmCommand::run);
        register("workbench", "open the desktop workbench: workbench <LOG> [--until N] [--screenshot OUT.png]",
                WorkbenchLink::run);
        register("chord-check", "same as 'check chord'", ChordCheckCommand::run);
        register("chord-trace", "same as 'trace chord'", ChordTraceCommand::run);
        register("raft-check", "same as 'check raft'", RaftCheckCommand::run);
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

    private static int check(String[] args, PrintStream out, PrintStream err) {
        String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
        if (args.length > 0 && args[0].equals("chord")) {
            return ChordCheckCommand.run(rest, out, err);
        }
        if (args.length > 0 && args[0].equals("raft")) {
            return RaftCheckCommand.run(rest, out, err);
        }
        err.print("usage: weft check chord <recording.weftlog> [m-bits] | weft check raft <recording.weftlog>\n");
        return 1;
    }

    private static int trace(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && args[0].equals("chord")) {
            return ChordTraceCommand.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        }
        err.print("usage: weft trace chord <recording.weftlog> [m-bits]\n");
        return 1;
    }

    /** The top-level help text, listing every registered subcommand. */
    public static String usage() {
        CommandSpec spec = CommandSpec.create().name("weft").version(VERSION);
        spec.usageMessage()
                .description("Deterministic simulation testing for unmodified Linux binaries: one 64-bit seed decides "
                        + "every clock read, random byte, interleaving and network fate; runs are recorded as weft-logs.")
                .customSynopsis("weft <COMMAND> [ARGS...]")
                .width(100)
                .footer("", "Run 'weft <COMMAND> --help' for a command's options. 'weft --version' prints the version.");
        for (Map.Entry<String, Entry> e : COMMANDS.entrySet()) {
            CommandSpec sub = CommandSpec.create().name(e.getKey());
            sub.usageMessage().description(e.getValue().summary());
            spec.addSubcommand(e.getKey(), sub);
        }
        return new CommandLine(spec).getUsageMessage(CommandLine.Help.Ansi.OFF);
    }
}
