package dev.weft.app.source;

import dev.weft.log.LogRecord;
import dev.weft.protocol.Episode;
import dev.weft.protocol.PlacedViolation;
import dev.weft.protocol.Protocol;
import dev.weft.protocol.ProtocolResult;
import dev.weft.protocol.ProtocolVerdicts;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * The protocol invariants of a recording (invariants-and-checkers.md §5, §6), evaluated with the engine's checkers
 * ({@link ProtocolVerdicts}) in the same pass that indexes the file. Which registered protocol a recording speaks is
 * read from its reports' shape; a recording without reports has none. The verdict is the one the protocol's
 * {@code weft check} command prints ({@link #command}).
 *
 * @param result     the protocol checker's result, or null when the recording speaks no protocol
 * @param violations the violations the verdict rests on, placed on ops and their virtual times, sorted by op
 */
public record ProtocolChecks(ProtocolResult result, List<ViolationInfo> violations) {

    /** Keeps its own copy of the list. */
    public ProtocolChecks {
        violations = List.copyOf(violations);
    }

    public static ProtocolChecks none() {
        return new ProtocolChecks(null, List.of());
    }

    /** The protocol the recording speaks, or null. */
    public Protocol protocol() {
        return result == null ? null : result.protocol();
    }

    /** The checker's verdict line (after "verdict   : "), or "" when there is no protocol. */
    public String verdict() {
        return result == null ? "" : result.verdict();
    }

    /** The checker's exit code: 0 OK, 2 violation, 3 discard; 0 without a protocol. */
    public int exitCode() {
        return result == null ? 0 : result.exitCode();
    }

    /** Every stretch over which one of the protocol's invariants was broken (transient ones too), by start op. */
    public List<Episode> episodes() {
        return result == null ? List.of() : result.episodes();
    }

    /** The protocol's own state over time, for its view; null without a protocol. */
    public Object state() {
        return result == null ? null : result.state();
    }

    /** Invariant names checked for this recording, in the checker's order. */
    public List<String> names() {
        return result == null ? List.of() : result.protocol().invariants();
    }

    /** The command that prints the same verdict; "" without a protocol. */
    public String command(Path log) {
        return result == null ? "" : result.protocol().checkCommand(log.toString());
    }

    /** Collects the protocol state while a recording is read once, in file order. */
    public static final class Builder {
        private final ProtocolVerdicts verdicts = new ProtocolVerdicts();

        public void accept(LogRecord r) {
            verdicts.accept(r);
        }

        /** vtOf: the virtual time of an op (to place each violation on the time axis). */
        public ProtocolChecks build(LongUnaryOperator vtOf) {
            ProtocolResult result = verdicts.result();
            if (result == null) return none();
            List<ViolationInfo> placed = new ArrayList<>();
            for (PlacedViolation p : result.violations()) {
                placed.add(new ViolationInfo(p.invariant(), p.op(), vtOf.applyAsLong(p.op()), p.detail()));
            }
            return new ProtocolChecks(result, placed);
        }
    }
}
