package dev.weft.launcher.check.chord;

import dev.weft.chord.ChordTrace;
import dev.weft.launcher.check.Recordings;
import java.io.PrintStream;

/**
 * {@code chord-trace <LOG> [m]} (also {@code weft trace chord <LOG> <M>}): the Chord state trace of
 * invariants-and-checkers.md §5.6. m is accepted and ignored. Exit 0 when the log was read, else 1.
 */
public final class ChordTraceCommand {

    static final String NAME = "chord-trace";

    public static final String USAGE = "Usage: weft trace chord <LOG> [M]   (also: weft chord-trace <LOG> [M])\n"
            + "\n"
            + "Prints the Chord ring state after every RPT state report in a recording.\n"
            + "\n"
            + "Arguments:\n"
            + "  <LOG>  a weft-log v2 recording (.weftlog or .weftlog.gz)\n"
            + "  [M]    identifier bits (accepted and ignored, as the reference does)\n"
            + "\n"
            + "Exit status: 0 the log was read, 1 usage or unreadable log.\n";

    private ChordTraceCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ChordTrace trace = new ChordTrace();
        return Recordings.readThenReport(NAME, " [m-bits]", args, out, err, trace::accept,
                (log, header) -> new Recordings.Report(trace.render(log, header), 0));
    }
}
