package dev.weft.launcher.run;

import dev.weft.scenario.FilesystemFaults;
import dev.weft.scenario.NodeSpec;
import dev.weft.scenario.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** One node to run: its id, command and its own variables on top of the run's. */
record NodePlan(long id, List<String> command, Map<String, String> extraEnv) {

    /** Each scenario node's command and variables: file faults (existing shim variables) and clock skew. */
    static List<NodePlan> ofScenario(Scenario s) {
        List<NodePlan> plans = new ArrayList<>();
        for (NodeSpec n : s.nodes()) {
            List<String> cmd = new ArrayList<>();
            cmd.add(n.program());
            cmd.addAll(n.args());
            Map<String, String> extra = new LinkedHashMap<>();
            FilesystemFaults f = s.filesystem() == null ? null : s.filesystem().get(n.nodeId());
            if (f != null) {
                if (f.fsyncLies()) {
                    extra.put("WEFT_FSYNC_LIES", "1");
                }
                if (f.enospcAfterBytes() != null) {
                    extra.put("WEFT_ENOSPC_BYTES", Long.toUnsignedString(f.enospcAfterBytes()));
                }
                if (f.tornWriteProbability() != null && f.tornWriteProbability() > 0) {
                    extra.put("WEFT_TORN_WRITES_PPM", Long.toString(Math.round(f.tornWriteProbability() * 1_000_000)));
                }
            }
            Long skew = s.timeSkew() == null ? null : s.timeSkew().get(n.nodeId());
            if (skew != null && skew != 0) {
                extra.put("WEFT_CLOCK_SKEW_NS", Long.toString(skew));
            }
            extra.putAll(n.env()); // our extension: the node's own variables (checked when loaded)
            plans.add(new NodePlan(n.nodeId(), cmd, extra));
        }
        return plans;
    }

    /**
     * This node's own variables on top of the run's environment and the shim's: {@code --env}, the network, then the
     * plan's (file faults, clock skew, a scenario node's {@code env}).
     */
    Map<String, String> variables(RunOptions o, String net) {
        Map<String, String> own = new LinkedHashMap<>(o.cluster().nodeEnv().set());
        own.put("WEFT_NET", net);
        if (o.cluster().windowNs() > 0) {
            own.put("WEFT_WINDOW_NS", Long.toUnsignedString(o.cluster().windowNs()));
        }
        own.putAll(extraEnv);
        return own;
    }

    /** A node on a host agent: the environment it would get here ({@code env}, the shim's, its own) minus the deny-list. */
    static SortedMap<String, String> remoteVariables(RunOptions o, Path shim, Map<String, String> env,
            Map<String, String> own) {
        Map<String, String> asHere = new HashMap<>(env);
        RunCommand.applyEnvironment(o, shim, asHere);
        asHere.putAll(own);
        return NodeEnvironment.forwarded(asHere, o.cluster().nodeEnv().pass(), Map.of());
    }
}
