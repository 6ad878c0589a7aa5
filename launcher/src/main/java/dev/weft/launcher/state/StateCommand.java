package dev.weft.launcher.state;

import dev.weft.check.EventText;
import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.core.Channel;
import dev.weft.core.CoreState;
import dev.weft.core.PendingDatagram;
import dev.weft.launcher.cli.ToolUsage;
import dev.weft.log.LogRecord;
import dev.weft.log.VAddr;
import dev.weft.log.WeftLogException;
import dev.weft.replay.IndexStatus;
import dev.weft.replay.LogIndex;
import dev.weft.text.RustText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft state <LOG> --at <OP> [--at <OP>...]}: the broker's state right after op N — pending datagrams per
 * connection in pop order, bindings, next channel sequence numbers, counters — the headless twin of the workbench's
 * state panel. Answers come from the log index (a checkpoint plus fewer than 1024 replay steps), not a replay from op 0.
 * Exit 0, or 1 when the log cannot be indexed, an op is out of range, or an op lies at or past the log's first bad
 * op (a divergence, replay error or read error), whose state would not be the recorded run's.
 */
public final class StateCommand {

    public static final String USAGE = String.join("\n",
            "Usage: weft state <LOG> --at <OP> [--at <OP>...]",
            "",
            "Prints the simulated network's state right after each given op: pending datagrams per connection",
            "(in the order recv would pop them), bindings, next send order per channel, vt and counters; for a",
            "run with TCP, its listeners and streams (state, both ends, bytes in flight and unread each way).",
            "");

    private static final ToolUsage TOOL = new ToolUsage("state", USAGE);

    private StateCommand() {
    }

    /** The picocli model of {@code weft state}: the recording, {@code --at} (repeatable), {@code -h/--help}. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("state")
                .addOption(CommandArgs.repeatedOption("<OP>", "--at"))
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("<LOG>"));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ToolUsage.Parsed given = TOOL.parse(spec(), args, out, p -> p.kind() == ArgsProblem.Kind.MISSING_VALUE
                ? fail(err, "--at requires an op index") : TOOL.mistake(err, p.asUnexpectedArgument()));
        if (given.answered()) {
            return given.exit();
        }
        ParseResult parsed = given.args();
        List<Long> ops = new ArrayList<>();
        for (String v : parsed.matchedOptionValue("--at", List.<String>of())) {
            try {
                ops.add(RustText.parseU64(v));
            } catch (NumberFormatException e) {
                return fail(err, "--at " + RustText.debugQuote(v) + ": not an op index");
            }
        }
        List<String> logs = CommandArgs.operands(parsed);
        if (logs.size() > 1) {
            return TOOL.mistake(err, "unexpected argument " + RustText.debugQuote(logs.get(1)));
        }
        String log = logs.isEmpty() ? null : logs.get(0);
        if (log == null || ops.isEmpty()) {
            return TOOL.mistake(err, log == null ? "no log file given" : "no --at op given");
        }
        try (LogIndex index = LogIndex.build(Path.of(log), List.of(), LogIndex.DEFAULT_CHECKPOINT_EVERY, null, null,
                () -> false, LogIndex.defaultCacheDir())) {
            IndexStatus status = index.status();
            long trusted = trustedOps(index);
            if (!status.ok()) {
                err.print("weft state: " + log + ": note: " + status.message() + " (" + status.kind() + "); "
                        + knownUpTo(trusted) + "\n");
            }
            StringBuilder sb = new StringBuilder();
            for (long op : ops) {
                if (op < 0 || op >= index.size()) {
                    out.print(sb);
                    return fail(err, log + ": op " + Long.toUnsignedString(op) + (index.size() == 0
                            ? " does not exist: the recording holds no ops" : " is not in 0.." + (index.size() - 1)));
                }
                if (op >= trusted) {
                    // Past the first bad op the replayed state is not the recorded run's: refuse rather than
                    // print a plausible but wrong state (the same rule as weft replay's exit 1 on divergence).
                    out.print(sb);
                    return fail(err, log + ": no trustworthy state after op " + Long.toUnsignedString(op) + ": "
                            + status.message() + "; " + knownUpTo(trusted));
                }
                render(sb, index.record(op), index.stateAt(op));
            }
            out.print(sb);
            return 0;
        } catch (WeftLogException e) {
            return fail(err, log + ": " + e.getMessage());
        } catch (IOException e) {
            return fail(err, log + ": I/O error: " + e.getMessage());
        }
    }

    /** Ops whose state is the recorded run's: all replayable ops of a good log, else those before the first bad op. */
    private static long trustedOps(LogIndex index) {
        IndexStatus status = index.status();
        if (status.ok()) return index.replayableOps();
        return Math.max(0, Math.min(index.replayableOps(), status.firstBadOp()));
    }

    private static String knownUpTo(long trusted) {
        return trusted == 0 ? "no state is known" : "states are known up to op " + (trusted - 1);
    }

    static void render(StringBuilder sb, LogRecord at, CoreState s) {
        sb.append("state after op ").append(Long.toUnsignedString(at.op())).append(": ")
                .append(EventText.line(at.event())).append('\n');
        sb.append("  vt ").append(Long.toUnsignedString(s.vt())).append(" ns, sent ").append(Long.toUnsignedString(s.sent()))
                .append(", dropped ").append(Long.toUnsignedString(s.dropped())).append(", next tie ")
                .append(Long.toUnsignedString(s.tie())).append(", pending ").append(s.pendingCount()).append('\n');
        sb.append("  pending (pop order):").append(s.queues().isEmpty() ? " none" : "").append('\n');
        for (Map.Entry<Long, List<PendingDatagram>> q : s.queues().entrySet()) {
            sb.append("    conn ").append(Long.toUnsignedString(q.getKey())).append(": ").append(q.getValue().size())
                    .append(" datagram(s)\n");
            for (PendingDatagram d : q.getValue()) {
                sb.append("      deliv ").append(Long.toUnsignedString(d.delivNs())).append("ns tie ")
                        .append(Long.toUnsignedString(d.tie())).append("  ").append(d.src().text()).append(" \u2192 ")
                        .append(d.dst().text()).append("  ").append(preview(d.payloadHex())).append('\n');
            }
        }
        sb.append("  bindings:").append(s.bindings().isEmpty() ? " none" : "").append('\n');
        for (Map.Entry<VAddr, Long> b : s.bindings().entrySet()) {
            sb.append("    ").append(b.getKey().text()).append(" \u2192 conn ").append(Long.toUnsignedString(b.getValue()))
                    .append('\n');
        }
        sb.append("  next send order per channel:").append(s.nextChanSeq().isEmpty() ? " none" : "").append('\n');
        for (Map.Entry<Channel, Long> c : s.nextChanSeq().entrySet()) {
            sb.append("    ").append(c.getKey().src().text()).append(" \u2192 ").append(c.getKey().dst().text())
                    .append(" : ").append(Long.toUnsignedString(c.getValue())).append('\n');
        }
        TcpStateText.render(sb, s.tcp());
    }

    private static String preview(String hex) {
        return hex.length() <= 32 ? hex : hex.substring(0, 32) + "… (" + hex.length() / 2 + " bytes)";
    }

    private static int fail(PrintStream err, String message) {
        err.print("weft state: " + message + "\n");
        return 1;
    }
}
