package dev.weft.launcher.check;

import dev.weft.chord.ChordTrace;
import dev.weft.log.LogHeader;
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
        if (args.length < 1) {
            Recordings.print(err, "usage: " + NAME + " <recording.weftlog> [m-bits]\n");
            return 1;
        }
        String log = args[0];
        ChordTrace trace = new ChordTrace();
        LogHeader header;
        try {
            header = Recordings.forEach(log, trace::accept);
        } catch (Recordings.Unreadable e) {
            Recordings.print(err, NAME + ": " + log + ": " + e.getMessage() + "\n");
            return 1;
        }
        Recordings.print(out, trace.render(log, header));
        return 0;
    }
}
