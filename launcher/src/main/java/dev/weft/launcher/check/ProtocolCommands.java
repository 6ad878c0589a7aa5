package dev.weft.launcher.check;

import java.io.PrintStream;

/**
 * What a protocol brings to the command line: its {@code weft check NAME} (and maybe {@code weft trace NAME}) with their
 * help. Implementations are registered in {@code META-INF/services/dev.weft.launcher.check.ProtocolCommands} and
 * reached through {@link CheckHelp}, which lists them by protocol name.
 */
public interface ProtocolCommands {

    /** The protocol's name, the word after {@code check} ({@link dev.weft.protocol.Protocol#name()}). */
    String protocol();

    /** The check in the usage line of {@code weft check --help} ({@code weft check NAME <LOG>}). */
    String checkSynopsis();

    /** The check in the usage error of a bare {@code weft check} ({@code weft check NAME <recording.weftlog>}). */
    String checkErrorSynopsis();

    /** Its line (with its newline) in the checker table of {@code weft check --help}. */
    String checkHelpLine();

    /** {@code weft check NAME --help}. */
    String checkUsage();

    /** Runs the check on the arguments after its name; returns the exit code. */
    int check(String[] args, PrintStream out, PrintStream err);

    /** Whether the protocol has a {@code weft trace NAME}; the trace methods are only called when it has. */
    default boolean hasTrace() {
        return false;
    }

    default String traceSynopsis() {
        throw new UnsupportedOperationException();
    }

    default String traceErrorSynopsis() {
        throw new UnsupportedOperationException();
    }

    default String traceHelpLine() {
        throw new UnsupportedOperationException();
    }

    default String traceUsage() {
        throw new UnsupportedOperationException();
    }

    default int trace(String[] args, PrintStream out, PrintStream err) {
        throw new UnsupportedOperationException();
    }
}
