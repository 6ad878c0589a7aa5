package dev.weft.launcher.check.chord;

import dev.weft.chord.ChordCheck;
import dev.weft.chord.ChordCheckResult;
import dev.weft.launcher.check.CheckHelp;
import dev.weft.launcher.check.Recordings;
import dev.weft.text.RustText;
import java.io.PrintStream;

/**
 * {@code chord-check <LOG> [m]} (also {@code weft check chord <LOG> <M>}): the Chord final-state check of
 * invariants-and-checkers.md §5.5. Exit 0 OK, 2 violation, 3 DISCARD, 1 usage or unreadable log.
 */
public final class ChordCheckCommand {

    static final String NAME = "chord-check";
    static final long DEFAULT_M = 6;

    public static final String USAGE = "Usage: weft check chord <LOG> [M]   (also: weft chord-check <LOG> [M])\n"
            + "\n"
            + "Checks the Chord ring's final state from the nodes' RPT state reports in a recording:\n"
            + "AtLeastOneRing, AtMostOneRing, OrderedRing and ConnectedAppendages, one line per violation;\n"
            + "DISCARD when the scenario broke the failure assumption (a node lost both successors).\n"
            + "\n"
            + "Arguments:\n"
            + "  <LOG>  a weft-log v2 recording (.weftlog or .weftlog.gz)\n"
            + "  [M]    identifier bits of the ring (default 6)\n"
            + "\n"
            + CheckHelp.EXIT_CHECK;

    private ChordCheckCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ChordCheck check = new ChordCheck(mBits(args));
        return Recordings.readThenReport(NAME, " [m-bits]", args, out, err, check::accept, (log, header) -> {
            ChordCheckResult result = check.result();
            return new Recordings.Report(result.render(log, header), result.exitCode());
        });
    }

    /** The second argument as a u32 if it is one; otherwise, or when absent, 6 (as the reference). */
    public static long mBits(String[] args) {
        if (args.length < 2) return DEFAULT_M;
        try {
            return RustText.parseU32(args[1]);
        } catch (NumberFormatException e) {
            return DEFAULT_M;
        }
    }
}
