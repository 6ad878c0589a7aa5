package dev.weft.launcher.check;

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
        RaftCheck check = new RaftCheck();
        return Recordings.readThenReport(NAME, "", args, out, err, check::accept, (log, header) -> {
            RaftCheckResult result = check.result();
            return new Recordings.Report(result.render(log, header), result.exitCode());
        });
    }
}
