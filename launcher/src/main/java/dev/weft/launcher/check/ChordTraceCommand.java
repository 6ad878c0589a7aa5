package dev.weft.launcher.check;

import dev.weft.chord.ChordTrace;
import java.io.PrintStream;

/**
 * {@code chord-trace <LOG> [m]} (also {@code weft trace chord <LOG> <M>}): the Chord state trace of
 * invariants-and-checkers.md §5.6. m is accepted and ignored. Exit 0 when the log was read, else 1.
 */
public final class ChordTraceCommand {

    static final String NAME = "chord-trace";

    private ChordTraceCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ChordTrace trace = new ChordTrace();
        return Recordings.readThenReport(NAME, " [m-bits]", args, out, err, trace::accept,
                (log, header) -> new Recordings.Report(trace.render(log, header), 0));
    }
}
