package dev.weft.launcher.run;

import dev.weft.text.ShellWords;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code weft run --dry-run}: prints what each node would be started with — its host, working directory, command
 * and environment, sorted — and starts nothing (no broker, no agent is contacted). A node on this machine shows the
 * exact command (isolation wrappers included) and environment; one on a host agent shows what the master sends,
 * and names what the agent adds from its own machine (docs/broker.md, "What travels with a node").
 */
final class DryRun {
    /** Stands for the broker's socket path, which only exists once the run starts. */
    static final String BROKER_PLACEHOLDER = "<the broker's socket, made when the run starts>";

    private DryRun() {
    }

    static int print(RunOptions o, List<NodePlan> plans, String net, Path shim, Map<String, String> env,
            PrintStream out, PrintStream err) {
        Placement placement = o.cluster().placement();
        ProcessInputs inputs = ProcessInputs.ofThisProcess();
        String cwd = System.getProperty("user.dir");
        for (NodePlan p : plans) {
            Map<String, String> own = p.variables(o, net);
            long hostId = placement.hostId(p.id());
            if (hostId == 0) {
                Map<String, String> extra = new java.util.LinkedHashMap<>(own);
                extra.put("WEFT_BROKER", BROKER_PLACEHOLDER);
                extra.put("WEFT_NODE_ID", Long.toString(p.id()));
                ProcessBuilder pb;
                try {
                    pb = RunCommand.build(o, shim, p.command(), env, extra, err::println);
                } catch (RunCommand.RefusedException e) {
                    err.println("weft run: " + e.getMessage());
                    return RunCommand.USAGE_ERROR;
                }
                out.println("node " + p.id() + ": host 0 (this machine)");
                out.println("  directory " + cwd);
                out.println("  command " + words(pb.command()));
                printInputs(out, inputs);
                new TreeMap<>(pb.environment()).forEach((k, v) -> out.println("  env " + k + "=" + v));
            } else {
                out.println("node " + p.id() + ": host " + hostId + " (" + placement.address(hostId) + ")");
                out.println("  directory " + cwd + " (if it exists there; else the agent's own)");
                out.println("  command " + words(p.command()) + " (found through the agent's PATH; under its shim and"
                        + " isolation wrappers)");
                printInputs(out, inputs);
                NodePlan.remoteVariables(o, shim, env, own).forEach((k, v) -> out.println("  env " + k + "=" + v));
                out.println("  env from the agent's machine: PATH, LD_* (its shim in LD_PRELOAD), WEFT_BROKER,"
                        + " WEFT_NODE_ID, WEFT_HOST_ID, and what it has of " + String.join(", ",
                        new java.util.TreeSet<>(NodeEnvironment.MACHINE)));
            }
        }
        return 0;
    }

    private static void printInputs(PrintStream out, ProcessInputs inputs) {
        out.println("  umask " + (inputs.umask() == null ? "unknown" : inputs.umask()) + "; soft limits "
                + (inputs.limits().isEmpty() ? "unknown" : inputs.limits().toString().replaceAll("[{}]", "")));
    }

    private static String words(List<String> ws) {
        return ShellWords.join(ws);
    }
}
