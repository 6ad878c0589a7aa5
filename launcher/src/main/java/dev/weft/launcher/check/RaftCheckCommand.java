package dev.weft.launcher.check;

import dev.weft.log.LogHeader;
import dev.weft.raft.RaftCheck;
import dev.weft.raft.RaftCheckResult;
import java.io.PrintStream;

/**
 * {@code raft-check <LOG>} (also {@code weft check raft <LOG>}): ElectionSafety per
 * invariants-and-checkers.md §6; extra arguments are ignored. Exit 0 OK, 2 violation, 3 DISCARD,
 * 1 usage or unreadable log.
 */
public final class RaftCheckCommand {

    static final String NAME = "raft-check";

    private RaftCheckCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 1) {
            Recordings.print(err, "usage: " + NAME + " <recording.weftlog>\n");
            return 1;
        }
        String log = args[0];
        RaftCheck check = new RaftCheck();
        LogHeader header;
        try {
            header = Recordings.forEach(log, check::accept);
        } catch (Recordings.Unreadable e) {
            Recordings.print(err, NAME + ": " + log + ": " + e.getMessage() + "\n");
            return 1;
        }
        RaftCheckResult result = check.result();
        Recordings.print(out, result.render(log, header));
        return result.exitCode();
    }
}
