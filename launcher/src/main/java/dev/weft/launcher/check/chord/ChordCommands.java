package dev.weft.launcher.check.chord;

import dev.weft.chord.ChordProtocol;
import dev.weft.launcher.check.ProtocolCommands;
import java.io.PrintStream;

/** {@code weft check chord} and {@code weft trace chord}, registered with {@link dev.weft.launcher.check.CheckHelp}. */
public final class ChordCommands implements ProtocolCommands {

    @Override public String protocol() { return ChordProtocol.NAME; }
    @Override public String checkSynopsis() { return "weft check chord <LOG> [M]"; }
    @Override public String checkErrorSynopsis() { return "weft check chord <recording.weftlog> [m-bits]"; }
    @Override public String checkHelpLine() { return "  chord    the Chord ring's final state      (weft check chord --help)\n"; }
    @Override public String checkUsage() { return ChordCheckCommand.USAGE; }

    @Override
    public int check(String[] args, PrintStream out, PrintStream err) {
        return ChordCheckCommand.run(args, out, err);
    }

    @Override public boolean hasTrace() { return true; }
    @Override public String traceSynopsis() { return "weft trace chord <LOG> [M]"; }
    @Override public String traceErrorSynopsis() { return "weft trace chord <recording.weftlog> [m-bits]"; }
    @Override public String traceHelpLine() { return "  chord  the Chord ring after every report   (weft trace chord --help)\n"; }
    @Override public String traceUsage() { return ChordTraceCommand.USAGE; }

    @Override
    public int trace(String[] args, PrintStream out, PrintStream err) {
        return ChordTraceCommand.run(args, out, err);
    }
}
