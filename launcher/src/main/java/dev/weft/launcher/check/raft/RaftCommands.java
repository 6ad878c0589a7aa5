package dev.weft.launcher.check.raft;

import dev.weft.launcher.check.ProtocolCommands;
import dev.weft.raft.RaftProtocol;
import java.io.PrintStream;

/** {@code weft check raft}, registered with {@link dev.weft.launcher.check.CheckHelp}. */
public final class RaftCommands implements ProtocolCommands {

    @Override public String protocol() { return RaftProtocol.NAME; }
    @Override public String checkSynopsis() { return "weft check raft <LOG>"; }
    @Override public String checkErrorSynopsis() { return "weft check raft <recording.weftlog>"; }
    @Override public String checkHelpLine() { return "  raft     Raft ElectionSafety                (weft check raft --help)\n"; }
    @Override public String checkUsage() { return RaftCheckCommand.USAGE; }

    @Override
    public int check(String[] args, PrintStream out, PrintStream err) {
        return RaftCheckCommand.run(args, out, err);
    }
}
