package dev.weft.launcher.check.raft;

import dev.weft.raft.RaftCheck;
import dev.weft.raft.RaftCheckResult;
import dev.weft.launcher.check.CheckHelp;
import dev.weft.launcher.check.Recordings;
import java.io.PrintStream;

/**
 * {@code raft-check <LOG>} (also {@code weft check raft <LOG>}): ElectionSafety per
 * invariants-and-checkers.md §6; extra arguments are ignored. Exit 0 OK, 2 violation, 3 DISCARD,
 * 1 usage or unreadable log.
 */
public final class RaftCheckCommand {

    static final String NAME = "raft-check";

    public static final String USAGE = "Usage: weft check raft <LOG>   (also: weft raft-check <LOG>)\n"
            + "\n"
            + "Checks Raft's ElectionSafety (at most one leader per term) from the nodes' RPT state reports.\n"
            + "\n"
            + "Arguments:\n"
            + "  <LOG>  a weft-log v2 recording (.weftlog or .weftlog.gz)\n"
            + "\n"
            + CheckHelp.EXIT_CHECK;

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
