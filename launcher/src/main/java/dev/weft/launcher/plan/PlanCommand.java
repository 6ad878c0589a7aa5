package dev.weft.launcher.plan;

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

    private PlanCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        String log = null;
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help")) {
                out.print(USAGE);
                return 0;
            } else if (log == null && !a.startsWith("-")) {
                log = a;
            } else {
                err.print("weft plan: unexpected argument " + RustText.debugQuote(a) + "\n\n" + USAGE);
                return 1;
            }
        }
        if (log == null) {
            err.print("weft plan: no log file given\n\n" + USAGE);
            return 1;
        }
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
