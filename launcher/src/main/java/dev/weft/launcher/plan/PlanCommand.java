package dev.weft.launcher.plan;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.launcher.cli.ToolUsage;
import dev.weft.log.LogReader;
import dev.weft.log.WeftLogException;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.net.NetSpecException;
import dev.weft.replay.PlanExtractor;
import dev.weft.replay.PlanSidecar;
import dev.weft.text.RustText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft plan <LOG>}: the fault plan a recording followed (docs/fault-plans.md), printed as a plan document:
 * every datagram and TCP segment whose fate differs from the baseline. Feeding it to
 * {@code weft run --plan} re-runs the recording's network. Exit 0, or 1 with one line when the log cannot be read or
 * holds fates a plan cannot name.
 */
public final class PlanCommand {

    public static final String USAGE = String.join("\n",
            "Usage: weft plan <LOG>",
            "",
            "Prints the fault plan the recording followed: a weft-plan JSON document naming every datagram",
            "whose fate (latency or drop) and every TCP segment whose trip (latency, lost attempts) differs",
            "from the baseline (the net spec's minimum latency, nothing lost), in (src, dst, chan_seq) and",
            "(from, to, index) order. `weft run --plan FILE` runs a program under such a plan.",
            "");

    private static final ToolUsage TOOL = new ToolUsage("plan", USAGE);

    private PlanCommand() {
    }

    /** The picocli model of {@code weft plan}: the recording and {@code -h/--help}. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("plan")
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("<LOG>"));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ToolUsage.Parsed given = TOOL.parse(spec(), args, out, err, ArgsProblem::asUnexpectedArgument);
        if (given.answered()) {
            return given.exit();
        }
        ParseResult parsed = given.args();
        List<String> logs = CommandArgs.operands(parsed);
        for (int i = 0; i < logs.size(); i++) {
            if (i > 0 || logs.get(i).startsWith("-")) { // a lone "-" is not a log either: plan reads no stdin
                return TOOL.mistake(err, "unexpected argument " + RustText.debugQuote(logs.get(i)));
            }
        }
        if (logs.isEmpty()) {
            return TOOL.mistake(err, "no log file given");
        }
        String log = logs.get(0);
        FaultPlan plan;
        try (LogReader reader = LogReader.open(Path.of(log))) {
            // a recording made with a plan followed that plan: its segments' fates come from it, not the seed
            plan = PlanExtractor.extract(reader, PlanSidecar.forRecording(Path.of(log), reader.header()));
        } catch (PlanSidecar.Problem e) {
            return fail(err, e.getMessage());
        } catch (WeftLogException e) {
            return fail(err, log + ": " + e.getMessage());
        } catch (NetSpecException e) {
            return fail(err, log + ": header net spec unusable: " + e.getMessage());
        } catch (PlanExtractor.Unsupported e) {
            return fail(err, log + ": " + e.getMessage());
        } catch (IOException e) {
            return fail(err, log + ": I/O error: " + e.getMessage());
        }
        out.print(FaultPlanJson.write(plan));
        return 0;
    }

    private static int fail(PrintStream err, String message) {
        err.print("weft plan: " + message + "\n");
        return 1;
    }
}
