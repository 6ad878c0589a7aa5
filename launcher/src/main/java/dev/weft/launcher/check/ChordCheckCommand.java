package dev.weft.launcher.check;

import dev.weft.chord.ChordCheck;
import dev.weft.chord.ChordCheckResult;
import dev.weft.text.RustText;
import java.io.PrintStream;

/**
 * {@code chord-check <LOG> [m]} (also {@code weft check chord <LOG> <M>}): the Chord final-state check of
 * invariants-and-checkers.md §5.5. Exit 0 OK, 2 violation, 3 DISCARD, 1 usage or unreadable log.
 */
public final class ChordCheckCommand {

    static final String NAME = "chord-check";
    static final long DEFAULT_M = 6;

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
    static long mBits(String[] args) {
        if (args.length < 2) return DEFAULT_M;
        try {
            return RustText.parseU32(args[1]);
        } catch (NumberFormatException e) {
            return DEFAULT_M;
        }
    }
}
