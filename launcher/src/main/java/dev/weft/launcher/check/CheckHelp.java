package dev.weft.launcher.check;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * {@code weft check PROTOCOL|history} and {@code weft trace PROTOCOL}: picks the command named by the first word among
 * the registered {@link ProtocolCommands} (listed by protocol name, never in class-path order) and the history checker,
 * and answers {@code -h/--help} for each. The checkers' own argument rules and texts (invariants-and-checkers.md
 * §5–§6) stay in their classes; only help is added here, because the reference has none for them.
 */
public final class CheckHelp {

    public static final String EXIT_CHECK = "Exit status: 0 OK, 2 invariant violated, 3 DISCARD (the recording cannot decide),"
            + " 1 usage or unreadable log.\n";

    private static final List<ProtocolCommands> PROTOCOLS = load();
    private static final List<ProtocolCommands> TRACES = PROTOCOLS.stream().filter(ProtocolCommands::hasTrace).toList();

    public static final String HISTORY_CHECK_USAGE = "Usage: weft check history <HISTORY> --model <M>\n"
            + "\n"
            + "Checks a history of client operations (JSON lines, docs/history.md): linearizability for\n"
            + "register, cas-register, kv (one cas-register per key) and set; lost, duplicated, reordered\n"
            + "and phantom elements for list-append. A violation is printed as the smallest inconsistent\n"
            + "sub-history found, in plain words.\n"
            + "\n"
            + "Arguments:\n"
            + "  <HISTORY>    a history file, e.g. the history.jsonl that weft run writes beside a recording\n"
            + "  --model <M>  register | cas-register | kv | set | list-append\n"
            + "\n"
            + "Exit status: 0 OK, 2 violation, 3 undecided (the search gave up), 1 usage or unreadable history.\n";

    public static final String CHECK_USAGE = "Usage: " + join(PROTOCOLS, ProtocolCommands::checkSynopsis)
            + " | weft check history <HISTORY> --model <M>\n"
            + "\n"
            + "Protocol checkers over a recording's RPT state reports, and the history checker.\n"
            + "\n"
            + "Checkers:\n"
            + lines(PROTOCOLS, ProtocolCommands::checkHelpLine)
            + "  history  linearizability / list-append anomalies of a client history (weft check history --help)\n"
            + "\n"
            + EXIT_CHECK;

    public static final String TRACE_USAGE = "Usage: " + join(TRACES, ProtocolCommands::traceSynopsis) + "\n"
            + "\n"
            + "Protocol state traces over a recording's RPT state reports.\n"
            + "\n"
            + "Traces:\n"
            + lines(TRACES, ProtocolCommands::traceHelpLine)
            + "\n"
            + "Exit status: 0 the log was read, 1 usage or unreadable log.\n";

    private CheckHelp() {
    }

    private static List<ProtocolCommands> load() {
        List<ProtocolCommands> out = new ArrayList<>();
        for (ProtocolCommands c : ServiceLoader.load(ProtocolCommands.class, CheckHelp.class.getClassLoader())) out.add(c);
        out.sort(Comparator.comparing(ProtocolCommands::protocol));
        return List.copyOf(out);
    }

    private static String join(List<ProtocolCommands> commands, java.util.function.Function<ProtocolCommands, String> part) {
        return String.join(" | ", commands.stream().map(part).toList());
    }

    private static String lines(List<ProtocolCommands> commands, java.util.function.Function<ProtocolCommands, String> line) {
        return String.join("", commands.stream().map(line).toList());
    }

    private static ProtocolCommands named(List<ProtocolCommands> commands, String[] args) {
        if (args.length == 0) return null;
        for (ProtocolCommands c : commands) if (c.protocol().equals(args[0])) return c;
        return null;
    }

    public static int check(String[] args, PrintStream out, PrintStream err) {
        String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
        ProtocolCommands protocol = named(PROTOCOLS, args);
        if (protocol != null) {
            return helpRequested(rest) ? help(out, protocol.checkUsage()) : protocol.check(rest, out, err);
        }
        if (args.length > 0 && args[0].equals("history")) {
            return helpRequested(rest) ? help(out, HISTORY_CHECK_USAGE) : HistoryCheckCommand.run(rest, out, err);
        }
        err.print("usage: " + join(PROTOCOLS, ProtocolCommands::checkErrorSynopsis)
                + " | weft check history <history.jsonl> --model <M>\n");
        return 1;
    }

    public static int trace(String[] args, PrintStream out, PrintStream err) {
        ProtocolCommands protocol = named(TRACES, args);
        if (protocol != null) {
            String[] rest = Arrays.copyOfRange(args, 1, args.length);
            return helpRequested(rest) ? help(out, protocol.traceUsage()) : protocol.trace(rest, out, err);
        }
        err.print("usage: " + join(TRACES, ProtocolCommands::traceErrorSynopsis) + "\n");
        return 1;
    }

    private static boolean helpRequested(String[] args) {
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help")) {
                return true;
            }
        }
        return false;
    }

    private static int help(PrintStream out, String usage) {
        out.print(usage);
        return 0;
    }
}
