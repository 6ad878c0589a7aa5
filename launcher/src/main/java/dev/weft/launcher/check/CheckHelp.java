package dev.weft.launcher.check;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * {@code weft check chord|raft} and {@code weft trace chord}: picks the checker named by the first word and answers
 * {@code -h/--help} for each. The checkers' own argument rules and texts (invariants-and-checkers.md §5–§6) stay in
 * their classes; only help is added here, because the reference has none for them.
 */
public final class CheckHelp {

    private static final String EXIT_CHECK = "Exit status: 0 OK, 2 invariant violated, 3 DISCARD (the recording cannot decide),"
            + " 1 usage or unreadable log.\n";

    public static final String CHORD_CHECK_USAGE = "Usage: weft check chord <LOG> [M]   (also: weft chord-check <LOG> [M])\n"
            + "\n"
            + "Checks the Chord ring's final state from the nodes' RPT state reports in a recording:\n"
            + "AtLeastOneRing, AtMostOneRing, OrderedRing and ConnectedAppendages, one line per violation;\n"
            + "DISCARD when the scenario broke the failure assumption (a node lost both successors).\n"
            + "\n"
            + "Arguments:\n"
            + "  <LOG>  a weft-log v2 recording (.weftlog or .weftlog.gz)\n"
            + "  [M]    identifier bits of the ring (default 6)\n"
            + "\n"
            + EXIT_CHECK;

    public static final String RAFT_CHECK_USAGE = "Usage: weft check raft <LOG>   (also: weft raft-check <LOG>)\n"
            + "\n"
            + "Checks Raft's ElectionSafety (at most one leader per term) from the nodes' RPT state reports.\n"
            + "\n"
            + "Arguments:\n"
            + "  <LOG>  a weft-log v2 recording (.weftlog or .weftlog.gz)\n"
            + "\n"
            + EXIT_CHECK;

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

    public static final String CHORD_TRACE_USAGE = "Usage: weft trace chord <LOG> [M]   (also: weft chord-trace <LOG> [M])\n"
            + "\n"
            + "Prints the Chord ring state after every RPT state report in a recording.\n"
            + "\n"
            + "Arguments:\n"
            + "  <LOG>  a weft-log v2 recording (.weftlog or .weftlog.gz)\n"
            + "  [M]    identifier bits (accepted and ignored, as the reference does)\n"
            + "\n"
            + "Exit status: 0 the log was read, 1 usage or unreadable log.\n";

    public static final String CHECK_USAGE = "Usage: weft check chord <LOG> [M] | weft check raft <LOG>"
            + " | weft check history <HISTORY> --model <M>\n"
            + "\n"
            + "Protocol checkers over a recording's RPT state reports, and the history checker.\n"
            + "\n"
            + "Checkers:\n"
            + "  chord    the Chord ring's final state      (weft check chord --help)\n"
            + "  raft     Raft ElectionSafety                (weft check raft --help)\n"
            + "  history  linearizability / list-append anomalies of a client history (weft check history --help)\n"
            + "\n"
            + EXIT_CHECK;

    public static final String TRACE_USAGE = "Usage: weft trace chord <LOG> [M]\n"
            + "\n"
            + "Protocol state traces over a recording's RPT state reports.\n"
            + "\n"
            + "Traces:\n"
            + "  chord  the Chord ring after every report   (weft trace chord --help)\n"
            + "\n"
            + "Exit status: 0 the log was read, 1 usage or unreadable log.\n";

    private CheckHelp() {
    }

    public static int check(String[] args, PrintStream out, PrintStream err) {
        String[] rest = args.length > 0 ? Arrays.copyOfRange(args, 1, args.length) : args;
        if (args.length > 0 && args[0].equals("chord")) {
            return helpRequested(rest) ? help(out, CHORD_CHECK_USAGE) : ChordCheckCommand.run(rest, out, err);
        }
        if (args.length > 0 && args[0].equals("raft")) {
            return helpRequested(rest) ? help(out, RAFT_CHECK_USAGE) : RaftCheckCommand.run(rest, out, err);
        }
        if (args.length > 0 && args[0].equals("history")) {
            return helpRequested(rest) ? help(out, HISTORY_CHECK_USAGE) : HistoryCheckCommand.run(rest, out, err);
        }
        err.print("usage: weft check chord <recording.weftlog> [m-bits] | weft check raft <recording.weftlog>"
                + " | weft check history <history.jsonl> --model <M>\n");
        return 1;
    }

    public static int trace(String[] args, PrintStream out, PrintStream err) {
        if (args.length > 0 && args[0].equals("chord")) {
            String[] rest = Arrays.copyOfRange(args, 1, args.length);
            return helpRequested(rest) ? help(out, CHORD_TRACE_USAGE) : ChordTraceCommand.run(rest, out, err);
        }
        err.print("usage: weft trace chord <recording.weftlog> [m-bits]\n");
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
